// SPDX-License-Identifier: MIT
// The MCP server driven by the official TypeScript SDK client: connect and
// negotiate, list the tools, call bash (allowed, non-zero exit, timeout,
// policy denial, sandbox denial), background jobs, progress, cancellation.
// Prints "PASS name" / "FAIL name: detail" / "SKIP name: reason" lines for
// tests/integration/mcp-sdk.sh. Not for: malformed JSON-RPC (mcp-rpc.sh).
// Environment: MCP_SDK_DIR (the installed package), SLUICE, TEST_TMP.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const sdk = process.env.MCP_SDK_DIR;
const { Client } = await import(pathToFileURL(join(sdk, 'dist/esm/client/index.js')));
const { StdioClientTransport } = await import(pathToFileURL(join(sdk, 'dist/esm/client/stdio.js')));
const tmp = process.env.TEST_TMP;

const say = (word, name, detail) => console.log(`${word} ${name}${detail ? ': ' + detail : ''}`);
async function check(name, fn) {
  try {
    const r = await fn();
    if (typeof r === 'string') say('SKIP', name, r);
    else say('PASS', name);
  } catch (e) {
    say('FAIL', name, String(e && e.stack ? e.stack : e).replace(/\n/g, ' | '));
  }
}
function assert(cond, what) {
  if (!cond) throw new Error(what);
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function until(what, fn, ms = 10000) {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(50)) if (await fn()) return;
  throw new Error(`timed out waiting for ${what}`);
}
const alive = (pid) => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

async function connect(args) {
  const transport = new StdioClientTransport({
    command: process.env.SLUICE,
    args: ['mcp', ...args],
    env: process.env,
    stderr: 'inherit',
  });
  const client = new Client({ name: 'sluice-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

const ws = join(tmp, 'ws');
mkdirSync(ws, { recursive: true });
const client = await connect(['-C', ws, '--progress-interval', '200ms']);
const bash = (args, opts) => client.callTool({ name: 'bash', arguments: args }, undefined, opts);

await check('initialize negotiates a version the SDK speaks, and names the server', async () => {
  assert(client.getServerVersion().name === 'sluice', JSON.stringify(client.getServerVersion()));
  assert(client.getServerCapabilities().tools, 'no tools capability');
});

await check('tools/list offers bash (request schema, output schema) and the job tools', async () => {
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name).sort();
  assert(JSON.stringify(names) === '["bash","job_kill","job_output","jobs"]', names.join());
  const b = tools.find((t) => t.name === 'bash');
  assert(b.inputSchema.properties.command.type === 'string', 'command');
  assert(JSON.stringify(b.inputSchema.properties.mode.enum) === '["default","slow","background"]', 'mode');
  assert(b.inputSchema.required.includes('command'), 'required');
  assert(b.outputSchema && b.outputSchema.properties.exitCode, 'outputSchema');
  assert(b.description.includes(ws), 'the description names the working directory');
});

await check('bash runs an allowed command: content, structuredContent, no isError', async () => {
  const r = await bash({ command: 'echo hello; pwd', description: 'greet' });
  assert(!r.isError, JSON.stringify(r));
  assert(r.structuredContent.ok === true && r.structuredContent.exitCode === 0, 'exit 0');
  assert(r.structuredContent.stdout === `hello\n${ws}\n`, r.structuredContent.stdout);
  assert(r.content[0].type === 'text' && r.content[0].text.includes('hello'), 'text');
});

await check('a non-zero exit is a tool result with isError and the exit code', async () => {
  const r = await bash({ command: 'echo oops >&2; exit 3' });
  assert(r.isError === true, 'isError');
  assert(r.structuredContent.exitCode === 3 && r.structuredContent.stderr === 'oops\n', 'exit 3');
  assert(r.content[0].text.startsWith('[command failed: exit code 3]'), r.content[0].text);
});

await check('a timeout is a tool result with isError, timedOut and error.kind timeout', async () => {
  const r = await bash({ command: 'echo before; sleep 20', timeout_ms: 300 });
  assert(r.isError === true, 'isError');
  assert(r.structuredContent.timedOut === true, 'timedOut');
  assert(r.structuredContent.error.kind === 'timeout', JSON.stringify(r.structuredContent.error));
  assert(r.structuredContent.output === 'before\n', 'partial output kept');
});

await check('an invalid request is a tool result naming the field', async () => {
  const r = await bash({ command: 'true', bogus: 1 });
  assert(r.isError === true, 'isError');
  assert(r.structuredContent.error.kind === 'invalid_request', JSON.stringify(r.structuredContent));
  assert(/bogus/.test(r.structuredContent.error.message), r.structuredContent.error.message);
});

await check('a policy denial is a tool result with isError and the reason', async () => {
  // A force push is denied by the built-in git_push plugin.
  mkdirSync(join(ws, 'repo'), { recursive: true });
  const r = await bash({ command: 'git push --force origin main', directory: 'repo' });
  assert(r.structuredContent.policy.verdict === 'deny', JSON.stringify(r.structuredContent));
  assert(r.structuredContent.policy.reasons[0].plugin === 'git_push', JSON.stringify(r.structuredContent));
  assert(r.isError === true, 'isError');
  assert(r.structuredContent.error.kind === 'permission_denied', JSON.stringify(r.structuredContent));
  assert(r.content[0].text.includes('denied by policy'), r.content[0].text);
});

await check('a sandbox denial (workspace-write) is a tool result with isError', async () => {
  const c2 = await connect(['-C', ws, '--sandbox', 'workspace-write']);
  try {
    const outside = join(tmp, 'outside');
    mkdirSync(outside, { recursive: true });
    const r = await c2.callTool({ name: 'bash', arguments: { command: `echo x > ${outside}/f` } });
    if (r.structuredContent.error && r.structuredContent.error.kind === 'sandbox_unavailable')
      return 'the kernel cannot enforce workspace-write here: ' + r.structuredContent.error.message;
    assert(r.isError === true, JSON.stringify(r));
    assert(!existsSync(join(outside, 'f')), 'the file was written');
    const inside = await c2.callTool({ name: 'bash', arguments: { command: 'echo y > inside' } });
    assert(!inside.isError && existsSync(join(ws, 'inside')), 'writing inside the workspace');
  } finally {
    await c2.close();
  }
});

await check('background: a job, listed, its output read with a tail, then killed', async () => {
  const r = await bash({ command: 'echo one; echo two; echo three', mode: 'background' });
  assert(!r.isError && r.structuredContent.jobId, JSON.stringify(r));
  const id = r.structuredContent.jobId;
  const status = async (job) => {
    const l = await client.callTool({ name: 'jobs', arguments: {} });
    const j = l.structuredContent.jobs.find((x) => x.id === job);
    return j && j.status;
  };
  await until('the job to complete', async () => (await status(id)) === 'completed');
  const out = await client.callTool({ name: 'job_output', arguments: { job: id, tail: 2 } });
  assert(!out.isError, JSON.stringify(out));
  const text = out.content[0].text;
  assert(text.includes('three') && !text.includes('one'), text);
  const long = await bash({ command: 'sleep 30', mode: 'background' });
  const lid = long.structuredContent.jobId;
  const k = await client.callTool({ name: 'job_kill', arguments: { job: lid } });
  assert(!k.isError, JSON.stringify(k));
  assert((await status(lid)) === 'killed', await status(lid));
  const again = await client.callTool({ name: 'job_kill', arguments: { job: lid } });
  assert(again.isError === true, 'killing a finished job is an error');
  const none = await client.callTool({ name: 'job_output', arguments: { job: 'no-such-job' } });
  assert(none.isError === true, 'an unknown job is an error');
});

await check('progress notifications arrive while a command runs (progressToken)', async () => {
  const seen = [];
  const r = await bash({ command: 'sleep 1.2; echo end' }, { onprogress: (p) => seen.push(p) });
  assert(!r.isError, JSON.stringify(r));
  assert(seen.length >= 2, `${seen.length} notifications`);
  assert(seen[1].progress > seen[0].progress, 'progress increases');
});

await check('cancellation ends the command\'s whole tree; the server keeps serving', async () => {
  const pidfile = join(ws, 'child.pid'); // the default mode writes only the workspace
  const ac = new AbortController();
  const call = bash({ command: `sleep 60 & echo $! > ${pidfile}; wait` }, { signal: ac.signal });
  await until('the child to start', async () => existsSync(pidfile) && readFileSync(pidfile, 'utf8').trim());
  const pid = Number(readFileSync(pidfile, 'utf8').trim());
  assert(alive(pid), 'the child runs');
  ac.abort('test');
  await call.then(() => assert(false, 'the call resolved'), () => {});
  await until('the child to be gone', () => !alive(pid), 8000);
  const r = await bash({ command: 'echo still here' });
  assert(r.structuredContent.stdout === 'still here\n', 'serving after a cancellation');
});

await check('ping answers', async () => {
  await client.ping();
});

await client.close();
