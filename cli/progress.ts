/**
 * Progress of a long job on standard error: a bar redrawn in place on a terminal (the item's
 * outcome in colour unless NO_COLOR is set), one plain line per item in CI or a log (no control
 * characters to garble it).
 */
import { styleText } from "node:util";

export type Tone = "good" | "notice" | "bad";

export interface Progress {
  step(done: number, total: number, text: string, outcome?: { text: string; tone: Tone }): void;
  finish(): void;
}

const COLOUR = { good: "green", notice: "yellow", bad: "red" } as const;

const WIDTH = 24;

export function progress(
  stream: NodeJS.WritableStream & { isTTY?: boolean },
  env: NodeJS.ProcessEnv,
  label: string,
): Progress {
  const live = stream.isTTY === true && !env.CI;
  const colour = live && !env.NO_COLOR;
  let drawn = false;
  return {
    step(done, total, text, outcome) {
      if (!live) {
        stream.write(`${label}: ${done}/${total} ${text}${outcome ? `: ${outcome.text}` : ""}\n`);
        return;
      }
      const filled = total === 0 ? WIDTH : Math.round((done / total) * WIDTH);
      const bar = `${"█".repeat(filled)}${"░".repeat(WIDTH - filled)}`;
      const columns = (stream as { columns?: number }).columns ?? 80;
      const line = `${label} ${bar} ${done}/${total} ${text}`;
      const status = outcome ? `: ${outcome.text}` : "";
      const room = Math.max(0, columns - 1 - line.length);
      const shown = `${line.slice(0, columns - 1)}${status.slice(0, room)}`;
      const coloured =
        colour && status && room >= status.length
          ? `${line}${styleText(COLOUR[outcome!.tone], status)}`
          : shown;
      stream.write(`\r\x1b[2K${coloured}`);
      drawn = true;
    },
    finish() {
      if (drawn) stream.write("\r\x1b[2K");
    },
  };
}
