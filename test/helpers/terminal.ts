import { spawn, type IPty } from '@lydell/node-pty';
import xterm from '@xterm/headless';

/** A program running in a pseudo-terminal, with the screen a person would see and a keyboard. */
export interface TestTerminal {
  /** The screen and its scrollback as text, one line per row; a row the terminal wrapped joins the one before. */
  screen(): string;
  /** Types `keys` as a keyboard would: `\r` is Enter. */
  type(keys: string): void;
  /** The program's exit, once it has exited. */
  readonly exit: { exitCode: number; signal?: number } | undefined;
  /** Ends the program (if still running) and the terminal. */
  close(): void;
}

/**
 * Starts `file args` in a pty of `cols`×`rows` whose output feeds a headless xterm: the program sees a real
 * terminal (isTTY, a size, answers to its queries), and the test reads what xterm rendered, not the raw bytes.
 */
export function startTerminal(file: string, args: string[], options: { cwd: string; cols: number; rows: number; env?: NodeJS.ProcessEnv }): TestTerminal {
  const term = new xterm.Terminal({ cols: options.cols, rows: options.rows, scrollback: 1000, allowProposedApi: true });
  const pty: IPty = spawn(file, args, {
    name: 'xterm-256color',
    cols: options.cols,
    rows: options.rows,
    cwd: options.cwd,
    env: { ...process.env, TERM: 'xterm-256color', ...options.env },
  });
  let exit: TestTerminal['exit'];
  pty.onData((data) => term.write(data));
  // What the terminal itself says back (cursor position reports and the like) goes to the program, as in a real one.
  term.onData((data) => {
    if (!exit) pty.write(data);
  });
  pty.onExit((e) => {
    exit = e;
  });
  return {
    screen() {
      const buffer = term.buffer.active;
      const lines: string[] = [];
      for (let i = 0; i < buffer.length; i++) {
        const line = buffer.getLine(i)!;
        // A row that wraps on keeps its trailing blanks: they are the spaces between its last word and the next row's.
        const text = line.translateToString(!buffer.getLine(i + 1)?.isWrapped);
        if (line.isWrapped && lines.length > 0) lines[lines.length - 1] += text;
        else lines.push(text);
      }
      return lines.join('\n').replace(/\n+$/, '');
    },
    type(keys) {
      pty.write(keys);
    },
    get exit() {
      return exit;
    },
    close() {
      if (!exit) pty.kill();
      term.dispose();
    },
  };
}
