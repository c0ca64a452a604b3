/**
 * Runs one `pulumi-incident` command in process (cli/main.ts `main`) and captures what it prints:
 * stdout, stderr (a terminal or not, 100 columns) and the exit code.
 */
import { PassThrough } from "node:stream";
import { main } from "../../cli/main";

export interface Captured {
  out: string;
  err: string;
  code: number;
}

export async function runCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  tty = false,
  stdin = "",
  now?: () => number,
): Promise<Captured> {
  let out = "";
  let err = "";
  const stderr = Object.assign(new PassThrough(), { isTTY: tty, columns: 100 });
  stderr.on("data", (chunk) => {
    err += chunk;
  });
  const code = await main(args, {
    stdin: async () => stdin,
    stdout: (t) => {
      out += t;
    },
    stderr,
    env,
    now,
  });
  return { out, err, code };
}
