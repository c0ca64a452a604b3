import { markRun } from "./leftoverProcesses";

export default function globalSetup(): void {
  markRun();
}
