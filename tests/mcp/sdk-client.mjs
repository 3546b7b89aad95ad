// SPDX-License-Identifier: MIT
// The MCP server driven by the official TypeScript SDK client: connect and
// negotiate, list the tools (titles, annotations, output schemas), call bash
// (allowed, non-zero exit, timeout, policy denial, sandbox denial, a large
// output sent once), background jobs, progress, cancellation, and an ask
// put to the client's user through elicitation (accepted, declined,
// remembered for the session, dismissed, unanswered, a client that cannot).
// Prints "PASS name" / "FAIL name: detail" / "SKIP name: reason" lines for
// tests/integration/mcp-sdk.sh. Not for: malformed JSON-RPC (mcp-rpc.sh).
// Environment: MCP_SDK_DIR (the installed package), SLUICE, TEST_TMP.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const sdk = process.env.MCP_SDK_DIR;
const { Client } = await import(pathToFileURL(join(sdk, 'dist/esm/client/index.js')));
const { StdioClientTransport } = await import(pathToFileURL(join(sdk, 'dist/esm/client/stdio.js')));
const { ElicitRequestSchema } = await import(pathToFileURL(join(sdk, 'dist/esm/types.js')));
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
// sluice's fields of a bash result, which go in _meta (not structuredContent)
const meta = (r) => (r._meta || {})['sluice/result'];
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

// connect(args, { elicit, env }): a client; elicit(request, extra) answers
// the server's elicitation/create requests (the client then declares the
// capability).
async function connect(args, opts = {}) {
  const transport = new StdioClientTransport({
    command: process.env.SLUICE,
    args: ['mcp', ...args],
    env: { ...process.env, ...(opts.env || {}) },
    stderr: 'inherit',
  });
  const client = new Client(
    { name: 'sluice-test', version: '1.0.0' },
    opts.elicit ? { capabilities: { elicitation: {} } } : undefined,
  );
  if (opts.elicit) client.setRequestHandler(ElicitRequestSchema, opts.elicit);
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
  // no outputSchema, so no structuredContent: the clients that show the
  // structure alone to the model would drop the output in the text
  assert(!('outputSchema' in b), 'bash has no outputSchema');
  assert(b.description.includes(ws), 'the description names the working directory');
  assert(b.description.includes('job_output') && b.description.includes('job_kill'), 'the job tools are named');
});

await check('every tool has a title and annotations; only jobs has structured results and an outputSchema', async () => {
  const { tools } = await client.listTools();
  const t = Object.fromEntries(tools.map((x) => [x.name, x]));
  for (const x of tools) assert(x.title && x.annotations && x.annotations.title === x.title, x.name);
  const a = (n) => t[n].annotations;
  // the hints follow the sandbox: a sandboxed mode forbids the network
  const sandboxed = /forbids/.test(t.bash.description);
  assert(a('bash').readOnlyHint === false && a('bash').destructiveHint === true && a('bash').openWorldHint === !sandboxed, 'bash');
  assert(a('jobs').readOnlyHint === true && a('job_output').readOnlyHint === true, 'the readers are read-only');
  assert(a('job_kill').destructiveHint === true && a('job_kill').readOnlyHint === false, 'job_kill');
  assert(t.jobs.outputSchema && !t.job_output.outputSchema && !t.bash.outputSchema, 'only jobs has an output schema');
});

await check('bash runs an allowed command: the output in the text, no structuredContent, its size in _meta', async () => {
  const r = await bash({ command: 'echo hello; pwd', description: 'greet' });
  assert(!r.isError, JSON.stringify(r));
  assert(meta(r).ran === true && meta(r).exitCode === 0, 'exit 0');
  assert(r.content[0].type === 'text' && r.content[0].text === `hello\n${ws}\n`, r.content[0].text);
  assert(!('structuredContent' in r), 'no structuredContent');
  const sc = meta(r);
  assert(!('output' in sc) && !('stdout' in sc) && !('stderr' in sc), 'no copy of the output');
  assert(sc.sandbox === null || !('enforced' in sc.sandbox), 'the sandbox without its list: ' + JSON.stringify(sc.sandbox));
  assert(sc.stdoutBytes === 7 + ws.length && sc.stderrBytes === 0 && sc.outputBytes === sc.stdoutBytes, JSON.stringify(sc));
});

await check('a non-zero exit is a tool result with isError and the exit code; streams apart when asked', async () => {
  const r = await bash({ command: 'echo out; echo oops >&2; exit 3', streams: true });
  assert(r.isError === true, 'isError');
  assert(meta(r).ran === true, 'it ran to its end');
  assert(meta(r).exitCode === 3, 'exit 3');
  assert(r.content[0].text === '[command failed: exit code 3]\n[stdout]\nout\n[stderr]\noops\n', 'streams apart in the text: ' + r.content[0].text);
});

await check('a 100 KB output costs the output once plus a fixed envelope (105%)', async () => {
  const size = 100 * 1024;
  const r = await bash({ command: `head -c ${size} /dev/zero | tr '\\0' x` });
  assert(!r.isError && r.content[0].text.length === size, `text ${r.content[0].text.length}`);
  const sent = JSON.stringify(r).length;
  assert(sent <= size * 1.05 + 2048, `${sent} bytes for ${size} bytes of output`);
  // streams apart: stdout and stderr once each, not beside the combined output
  const a = await bash({ command: `head -c ${size} /dev/zero | tr '\\0' x; echo err >&2`, streams: true });
  const apart = JSON.stringify(a).length;
  assert(a.content[0].text.startsWith('[stdout]\n') && a.content[0].text.endsWith('[stderr]\nerr\n'), a.content[0].text.slice(-40));
  assert(apart <= size * 1.05 + 2048, `${apart} bytes with streams for ${size} bytes of output`);
});

await check('a timeout is a tool result with isError, timedOut and error.kind timeout', async () => {
  const r = await bash({ command: 'echo before; sleep 20', timeout_ms: 1500 });
  assert(r.isError === true, 'isError');
  assert(meta(r).timedOut === true, 'timedOut');
  assert(meta(r).error.kind === 'timeout', JSON.stringify(meta(r).error));
  assert(meta(r).ran === false && r.content[0].text.endsWith('before\n'), 'partial output kept');
});

await check('an invalid request is a tool result naming the field', async () => {
  const r = await bash({ command: 'true', bogus: 1 });
  assert(r.isError === true, 'isError');
  assert(meta(r).error.kind === 'invalid_request', JSON.stringify(meta(r)));
  assert(/bogus/.test(meta(r).error.message), meta(r).error.message);
  const s = await bash({ command: 'true', streams: 'yes' });
  assert(s.isError === true && /'streams' must be a boolean/.test(meta(s).error.message), JSON.stringify(s));
});

await check('a policy denial is a tool result with isError and the reason', async () => {
  // A force push is denied by the built-in git_push plugin.
  mkdirSync(join(ws, 'repo'), { recursive: true });
  const r = await bash({ command: 'git push --force origin main', directory: 'repo' });
  assert(meta(r).policy.verdict === 'deny', JSON.stringify(meta(r)));
  assert(meta(r).policy.reasons[0].plugin === 'git_push', JSON.stringify(meta(r)));
  assert(r.isError === true, 'isError');
  assert(meta(r).error.kind === 'permission_denied', JSON.stringify(meta(r)));
  assert(r.content[0].text.includes('denied by policy'), r.content[0].text);
  const reason = meta(r).policy.reasons[0].message;
  const text = r.content[0].text;
  assert(text.split(reason).length === 2, 'the reason once in the text: ' + text);
  assert(!meta(r).error.message.includes(reason), 'the reason once in the structured result: ' + meta(r).error.message);
});

await check('a sandbox denial (workspace-write) is a tool result with isError', async () => {
  const c2 = await connect(['-C', ws, '--sandbox', 'workspace-write']);
  try {
    const outside = join(tmp, 'outside');
    mkdirSync(outside, { recursive: true });
    const r = await c2.callTool({ name: 'bash', arguments: { command: `echo x > ${outside}/f` } });
    if (meta(r).error && meta(r).error.kind === 'sandbox_unavailable')
      return 'the kernel cannot enforce workspace-write here: ' + meta(r).error.message;
    assert(r.isError === true, JSON.stringify(r));
    assert(!existsSync(join(outside, 'f')), 'the file was written');
    const inside = await c2.callTool({ name: 'bash', arguments: { command: 'echo y > inside' } });
    assert(!inside.isError && existsSync(join(ws, 'inside')), 'writing inside the workspace');
    // A command that reports the denial and still exits 0 is explained too.
    const quiet = await c2.callTool({ name: 'bash', arguments: { command: `echo x > ${outside}/g; true` } });
    assert(!quiet.isError, JSON.stringify(quiet));
    assert(/^\[sandbox: this looks like a denial by the workspace-write sandbox/m.test(quiet.content[0].text), quiet.content[0].text);
  } finally {
    await c2.close();
  }
});

await check('background: a job, listed, its output read with a tail, then killed', async () => {
  const r = await bash({ command: 'echo one; echo two; echo three', mode: 'background' });
  assert(!r.isError && meta(r).jobId, JSON.stringify(r));
  const t = r.content[0].text;
  assert(t.includes('job_output') && t.includes('job_kill') && !t.includes('sluice kill'), 'the hint names the job tools: ' + t);
  const id = meta(r).jobId;
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
  assert(!('structuredContent' in out) && meta(out).status === 'completed' && meta(out).cut === false, JSON.stringify(out));
  const long = await bash({ command: 'sleep 30', mode: 'background' });
  const lid = meta(long).jobId;
  const k = await client.callTool({ name: 'job_kill', arguments: { job: lid } });
  assert(!k.isError, JSON.stringify(k));
  assert((await status(lid)) === 'killed', await status(lid));
  const again = await client.callTool({ name: 'job_kill', arguments: { job: lid } });
  assert(again.isError === true, 'killing a finished job is an error');
  const none = await client.callTool({ name: 'job_output', arguments: { job: 'no-such-job' } });
  assert(none.isError === true, 'an unknown job is an error');
});

// The SDK validates structuredContent against the tool's outputSchema: a
// status the schema's enum does not list makes callTool throw.
await check('jobs lists a job of every end (timed out, failed, signalled) within its outputSchema; before, one timed-out job made every later jobs call fail the SDK check', async () => {
  const started = [
    ['timed_out', { command: 'sleep 30', mode: 'background', timeout_ms: 300 }],
    ['failed', { command: 'exit 3', mode: 'background' }],
    ['signalled', { command: 'kill -TERM $$', mode: 'background' }],
  ];
  for (const [want, args] of started) {
    const r = await bash(args);
    const id = meta(r).jobId;
    assert(id, JSON.stringify(r));
    await until(`a job ${want}`, async () => {
      const l = await client.callTool({ name: 'jobs', arguments: {} });
      const j = l.structuredContent.jobs.find((x) => x.id === id);
      return j && j.status === want;
    });
  }
  const { tools } = await client.listTools();
  const statuses = tools.find((t) => t.name === 'jobs').outputSchema.properties.jobs.items.properties.status.enum;
  assert(['running', 'completed', 'failed', 'signalled', 'timed_out', 'killed', 'lost'].every((s) => statuses.includes(s)), statuses.join());
});

await check('progress notifications arrive while a command runs (progressToken)', async () => {
  const seen = [];
  const r = await bash({ command: 'sleep 1.2; echo end' }, { onprogress: (p) => seen.push(p) });
  assert(!r.isError, JSON.stringify(r));
  assert(seen.length >= 2, `${seen.length} notifications`);
  assert(seen[1].progress > seen[0].progress, 'progress increases');
});

await check('cancellation ends the command\'s whole tree; the server keeps serving', async () => {
  // The child's pid as seen from here: inside its PID namespace, $! is
  // another number. A duration no other process has finds it.
  const duration = `${60 + (process.pid % 1000) / 1000}`;
  const outside = () => {
    try {
      return Number(execFileSync('pgrep', ['-x', '-f', `sleep ${duration}`]).toString().trim().split('\n')[0]);
    } catch {
      return 0;
    }
  };
  const ac = new AbortController();
  const call = bash({ command: `sleep ${duration} & wait` }, { signal: ac.signal });
  await until('the child to start', async () => outside() > 0);
  const pid = outside();
  assert(alive(pid), 'the child runs');
  ac.abort('test');
  await call.then(() => assert(false, 'the call resolved'), () => {});
  await until('the child to be gone', () => !alive(pid), 8000);
  const r = await bash({ command: 'echo still here' });
  assert(r.content[0].text === 'still here\n', 'serving after a cancellation');
});

await check('ping answers', async () => {
  await client.ping();
});

await check('jobs lists this workspace\'s jobs; all: true every workspace\'s', async () => {
  const other = join(tmp, 'other-ws');
  mkdirSync(other, { recursive: true });
  const c3 = await connect(['-C', other]);
  try {
    const r = await c3.callTool({ name: 'bash', arguments: { command: 'true', mode: 'background' } });
    const id = meta(r).jobId;
    const mine = await client.callTool({ name: 'jobs', arguments: {} });
    assert(!mine.structuredContent.jobs.some((j) => j.id === id), 'another workspace\'s job is not listed');
    const all = await client.callTool({ name: 'jobs', arguments: { all: true } });
    assert(all.structuredContent.jobs.some((j) => j.id === id && j.workspace === other), 'all: true lists it');
    const theirs = await c3.callTool({ name: 'jobs', arguments: {} });
    assert(theirs.structuredContent.jobs.some((j) => j.id === id), 'its own server lists it');
  } finally {
    await c3.close();
  }
});

// An ask: an administrator's rule asks for a person's yes. The command
// touches a marker, so whether it ran can be seen.
const asked = (marker) => `touch ${marker}`;
const askMarker = (name) => join(ws, `ask-me-${name}`);
const etc = join(tmp, 'etc-ask');
mkdirSync(join(etc, 'sluice'), { recursive: true });
const audit = join(tmp, 'audit.log');
writeFileSync(
  join(etc, 'sluice', 'sluice.ini'),
  `[approval]\ntimeout = 1s\n[audit]\nfile = ${audit}\n` +
    '[plugin regex]\nrule = person\npattern = ask-me\naction = ask\nmessage = this needs a person\'s yes\n',
);
const askEnv = { SLUICE_SYSCONFDIR: etc };
const auditLines = () => (existsSync(audit) ? readFileSync(audit, 'utf8').trim().split('\n').map((l) => JSON.parse(l)) : []);

await check('elicitation accepted: the question says what, where, which sandbox and why; the command ran', async () => {
  const seen = [];
  const c = await connect(['-C', ws], { env: askEnv, elicit: async (req) => { seen.push(req.params); return { action: 'accept', content: { remember: false } }; } });
  try {
    const marker = askMarker('accepted');
    const r = await c.callTool({ name: 'bash', arguments: { command: asked(marker), description: 'touch a marker' } });
    assert(!r.isError && meta(r).ran === true, JSON.stringify(r));
    assert(existsSync(marker), 'the command ran');
    assert(seen.length === 1, `${seen.length} questions`);
    const m = seen[0].message;
    for (const part of [`Command: touch ${marker}`, `Directory: ${ws}`, 'Sandbox: workspace-write (it forbids writing outside the workspace', "Why: regex: this needs a person's yes", 'The agent says: touch a marker', 'Accept to run it'])
      assert(m.includes(part), `the question lacks '${part}': ${m}`);
    assert(seen[0].requestedSchema.properties.remember.type === 'boolean', 'the remember box');
    const last = auditLines().pop();
    assert(last && last.approval === 'approved' && last.answeredBy === 'mcp-client', 'audit: ' + JSON.stringify(last));
  } finally {
    await c.close();
  }
});

await check('elicitation declined: refused, nothing ran, the approver is not asked', async () => {
  const c = await connect(['-C', ws], { env: askEnv, elicit: async () => ({ action: 'decline' }) });
  try {
    const marker = askMarker('declined');
    const r = await c.callTool({ name: 'bash', arguments: { command: asked(marker) } });
    assert(r.isError === true && meta(r).error.kind === 'permission_denied', JSON.stringify(r));
    assert(!existsSync(marker), 'the command ran');
    assert(r.content[0].text.includes('[not approved: declined at the MCP client]'), r.content[0].text);
    const last = auditLines().pop();
    assert(last && last.approval === 'refused' && last.answeredBy === 'mcp-client', 'audit: ' + JSON.stringify(last));
  } finally {
    await c.close();
  }
});

await check('elicitation "for the rest of the session": the same command is not asked again', async () => {
  let questions = 0;
  const c = await connect(['-C', ws], { env: askEnv, elicit: async () => { questions++; return { action: 'accept', content: { remember: true } }; } });
  try {
    const marker = askMarker('remembered');
    for (let i = 0; i < 2; i++) {
      rmSync(marker, { force: true });
      const r = await c.callTool({ name: 'bash', arguments: { command: asked(marker) } });
      assert(!r.isError && existsSync(marker), `call ${i}: ` + JSON.stringify(r));
    }
    assert(questions === 1, `${questions} questions`);
    const other = await c.callTool({ name: 'bash', arguments: { command: asked(askMarker('another')) } });
    assert(!other.isError && questions === 2, 'another command is asked again');
  } finally {
    await c.close();
  }
});

await check('elicitation dismissed or unanswered: the configured approver, then refusal', async () => {
  let withdrawn = false;
  const c = await connect(['-C', ws], {
    env: askEnv,
    elicit: async (req, extra) => {
      if (req.params.message.includes('dismiss')) return { action: 'cancel' };
      // never answers: the server gives up at [approval] timeout (1s) and says so
      await new Promise((resolve) => extra.signal.addEventListener('abort', () => { withdrawn = true; resolve(); }));
      return { action: 'cancel' };
    },
  });
  try {
    const marker = askMarker('dismiss');
    let r = await c.callTool({ name: 'bash', arguments: { command: asked(marker) } });
    assert(r.isError === true && !existsSync(marker), JSON.stringify(r));
    assert(r.content[0].text.includes('dismissed at the MCP client; no approver is configured'), r.content[0].text);
    const t0 = Date.now();
    const silent = askMarker('unanswered');
    r = await c.callTool({ name: 'bash', arguments: { command: asked(silent) } });
    assert(r.isError === true && !existsSync(silent), JSON.stringify(r));
    assert(r.content[0].text.includes('no answer at the MCP client within 1s'), r.content[0].text);
    assert(Date.now() - t0 < 8000, 'it gave up at the timeout');
    await until('the question to be withdrawn (notifications/cancelled)', () => withdrawn, 3000);
  } finally {
    await c.close();
  }
});

await check('a client without the elicitation capability: the ask is refused as before, no question', async () => {
  const c = await connect(['-C', ws], { env: askEnv });
  try {
    const marker = askMarker('unasked');
    const r = await c.callTool({ name: 'bash', arguments: { command: asked(marker) } });
    assert(r.isError === true && !existsSync(marker), JSON.stringify(r));
    assert(r.content[0].text.includes('[not approved: no approver is configured ([approval] method = deny)]'), r.content[0].text);
    const last = auditLines().pop();
    assert(last && last.approval === 'refused' && last.answeredBy === null, 'audit: ' + JSON.stringify(last));
  } finally {
    await c.close();
  }
});

await client.close();
