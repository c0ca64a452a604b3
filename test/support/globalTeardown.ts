import { failOnLeftovers } from "./leftoverProcesses";

export default function globalTeardown(): void {
  failOnLeftovers();
}
