// What main.ts answers without loading the command tree: the version, the help topics and the
// root help. The root help is commander's own rendering of the declarations for output that is
// not a terminal (commander wraps at 80 columns then; on a terminal, at its width). The build
// (scripts/build.mjs) runs this module and bundles its result as plain strings, so these answers
// cost one small file; run from source, it renders on demand.
import { Writable } from 'node:stream';
import type { IO } from './io.js';

export interface StaticAnswers {
  version: string;
  topics: Record<string, string>;
  /** `reldist --help` on a pipe or file, exactly as commander prints it. */
  rootHelp: string;
}

export async function staticAnswers(): Promise<StaticAnswers> {
  const [{ VERSION }, { helpTopics }, rootHelp] = await Promise.all([import('./version.js'), import('./help-topics.js'), renderRootHelp()]);
  return { version: VERSION, topics: { ...helpTopics }, rootHelp };
}

async function renderRootHelp(): Promise<string> {
  const { runCli } = await import('./run-cli.js');
  const out: string[] = [];
  const err: string[] = [];
  const sink = (into: string[]) =>
    new Writable({
      write(chunk: Buffer | string, _enc, done) {
        into.push(String(chunk));
        done();
      },
    });
  const io: IO = { stdin: process.stdin, stdout: sink(out), stderr: sink(err), stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false };
  const code = await runCli(['--help'], { io, env: {} });
  if (code !== 0) throw new Error(`rendering the root help failed (exit ${code}): ${err.join('')}`);
  return out.join('');
}
