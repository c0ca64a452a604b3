/**
 * Progress of a long job on standard error: a bar redrawn in place on a terminal, one plain line per
 * item in CI or a log (no control characters to garble it).
 */
export interface Progress {
  step(done: number, total: number, text: string): void;
  finish(): void;
}

const WIDTH = 24;

export function progress(
  stream: NodeJS.WritableStream & { isTTY?: boolean },
  env: NodeJS.ProcessEnv,
  label: string,
): Progress {
  const live = stream.isTTY === true && !env.CI;
  let drawn = false;
  return {
    step(done, total, text) {
      if (!live) {
        stream.write(`${label}: ${done}/${total} ${text}\n`);
        return;
      }
      const filled = total === 0 ? WIDTH : Math.round((done / total) * WIDTH);
      const bar = `${"█".repeat(filled)}${"░".repeat(WIDTH - filled)}`;
      const columns = (stream as { columns?: number }).columns ?? 80;
      stream.write(`\r\x1b[2K${`${label} ${bar} ${done}/${total} ${text}`.slice(0, columns - 1)}`);
      drawn = true;
    },
    finish() {
      if (drawn) stream.write("\r\x1b[2K");
    },
  };
}
