// kill-run of test/helpers, on small `node -e` programs: it kills at a printed line, after a delay,
// at the k-th request through the fault proxy, and never waits past its hard timeout.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy.js';
import { runAndKill } from '../helpers/kill-run.js';

const node = (script: string) => [process.execPath, '-e', script, '--'];
// Prints "step 1" … "step 50" every 10 ms, then "done": bounded even if nothing kills it.
const STEPS = node(
  `let i = 0; const t = setInterval(() => { if (++i > 50) { clearInterval(t); console.log('done'); return; } console.log('step ' + i); console.error('tick ' + i); }, 10);`,
);

describe('kill-run', () => {
  it('kills when a line matching the pattern is printed', async () => {
    const r = await runAndKill({ command: STEPS, args: [], killAt: { output: /^step 5$/ } });
    expect(r).toMatchObject({ killed: true, code: null, signal: 'SIGKILL' });
    expect(r.stdout).toContain('step 5\n');
    expect(r.stdout).not.toContain('done');
  });

  it('counts matches, on the stream asked for', async () => {
    const r = await runAndKill({ command: STEPS, args: [], killAt: { output: /^tick/, stream: 'stderr', count: 3 } });
    expect(r.killed).toBe(true);
    expect(r.stderr).toContain('tick 3\n');
    expect(r.stdout).not.toContain('done');
    const never = await runAndKill({ command: STEPS, args: [], killAt: { output: /^tick/, stream: 'stdout' } });
    expect(never).toMatchObject({ killed: false, code: 0 });
  });

  it('kills after a delay', async () => {
    const r = await runAndKill({
      command: node(`console.log('started'); setTimeout(() => console.log('finished'), 20000);`),
      args: [],
      killAt: { afterMs: 100 },
    });
    expect(r).toMatchObject({ killed: true, signal: 'SIGKILL' });
    // Whether node got as far as 'started' within 100 ms depends on the machine's load; the kill must come before 'finished'.
    expect(r.stdout).not.toContain('finished');
  });

  it('reports a run that ends by itself, with its exit code, output and stdin', async () => {
    const r = await runAndKill({
      command: node(`process.stdin.pipe(process.stdout); process.stdin.on('end', () => { console.error('bye'); process.exitCode = 3; });`),
      args: [],
      stdin: 'in\n',
    });
    expect(r).toEqual({ code: 3, signal: null, stdout: 'in\n', stderr: 'bye\n', killed: false });
  });

  it('fails clearly at its hard timeout', async () => {
    const run = runAndKill({ command: node(`console.error('stuck here'); setTimeout(() => {}, 20000);`), args: ['--flag'], timeoutMs: 300 });
    // Whether node has printed 'stuck here' within 300 ms depends on the machine's load; the error must name the command and the limit.
    await expect(run).rejects.toThrow(/--flag did not finish within 300 ms; the end of its stderr:/);
  });

  describe('at a request through the fault proxy', () => {
    let target: Server;
    let proxy: FaultProxy;
    let served = 0;
    beforeAll(async () => {
      target = createServer((req, res) => {
        served++;
        req.resume();
        res.end('ok');
      });
      await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
      proxy = await startFaultProxy({ target: `http://127.0.0.1:${(target.address() as AddressInfo).port}`, seed: 1, faults: {} });
    });
    afterAll(async () => {
      await proxy.close();
      target.closeAllConnections();
      await new Promise<void>((r) => target.close(() => r()));
    });

    // Five requests one after the other, each answer printed.
    const client = () =>
      node(
        `(async () => { for (let i = 1; i <= 5; i++) { const r = await fetch(process.argv[1] + '/releases/' + i, { method: 'POST' }); console.log(i + ' ' + await r.text()); } })();`,
      );

    it("'answered': the service did the k-th request, the client never heard of it", async () => {
      served = 0;
      const r = await runAndKill({ command: client(), args: [proxy.url], killAt: { proxy, request: 3, phase: 'answered' } });
      expect(r.killed).toBe(true);
      expect(served).toBe(3);
      expect(r.stdout).toBe('1 ok\n2 ok\n');
    });

    it("'arrived': the service never saw the k-th request; a run that ends first is not killed", async () => {
      served = 0;
      const r = await runAndKill({ command: client(), args: [proxy.url], killAt: { proxy, request: 3, phase: 'arrived' } });
      expect(r.killed).toBe(true);
      expect(served).toBe(2);
      served = 0;
      const whole = await runAndKill({ command: client(), args: [proxy.url], killAt: { proxy, request: 6, phase: 'arrived' } });
      expect(whole).toMatchObject({ killed: false, code: 0 });
      expect(served).toBe(5);
    });
  });
});
