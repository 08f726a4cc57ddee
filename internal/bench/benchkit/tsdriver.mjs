// The TypeScript SDK driver of the end-to-end benchmark: the same workload and measurements as the
// Go drivers (driver.go), through @anthropic-ai/claude-agent-sdk. The orchestrator runs it with
// node, AGENT_SDK_BENCH_SPEC (see Spec in driver.go) and AGENT_SDK_BENCH_TS_SDK (the directory of
// the installed package). It prints one JSON line: a Report.
//
// The SDK's round trip is measured as for Go: from the moment the SDK's process receives the chunk
// holding a hook_callback line (a 'data' listener on the CLI's stdout, registered before the SDK's
// own) to the moment the SDK hands the answer to the CLI's stdin (a wrapped stdin.write); likewise
// for the mcp_message requests of its in-process MCP server (createSdkMcpServer, spec.mcp_tools
// tools: echo, echo1, ...), counted as the Go driver does from the moment the prompt is sent.
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { createRequire } from 'node:module';

const spec = JSON.parse(process.env.AGENT_SDK_BENCH_SPEC);
const sdkDir = process.env.AGENT_SDK_BENCH_TS_SDK;
const { query, createSdkMcpServer, tool } = await import(pathToFileURL(path.join(sdkDir, 'node_modules/@anthropic-ai/claude-agent-sdk/sdk.mjs')).href);

const now = () => process.hrtime.bigint();
const cpuNS = () => { const u = process.cpuUsage(); return BigInt(u.user + u.system) * 1000n; };

const inAt = new Map(); // request_id -> when its hook_callback or mcp_message arrived
const rts = [];
let turnBegun = false; // requests read before the prompt (the MCP server's start) are not counted
const traced = (s) => s.includes('"hook_callback"') || s.includes('"mcp_message"');
const idRe = /"request_id":"([^"]+)"/g;

function spawnCLI(opts) {
  const child = spawn(opts.command, opts.args, { cwd: opts.cwd, env: opts.env, stdio: ['pipe', 'pipe', 'ignore'] });
  child.stdout.on('data', (chunk) => {
    const t = now();
    if (!turnBegun) return;
    const s = chunk.toString('utf8');
    if (!traced(s)) return;
    for (const line of s.split('\n')) {
      if (!traced(line)) continue;
      const m = /"request_id":"([^"]+)"/.exec(line);
      if (m) inAt.set(m[1], t);
    }
  });
  const write = child.stdin.write.bind(child.stdin);
  child.stdin.write = (chunk, ...rest) => {
    const s = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    if (s.includes('"control_response"')) {
      const t = now();
      for (const m of s.matchAll(idRe)) {
        const t0 = inAt.get(m[1]);
        if (t0 !== undefined) { rts.push(Number(t - t0)); inAt.delete(m[1]); }
      }
    }
    return write(chunk, ...rest);
  };
  return child;
}

const pass = async () => ({});
const deny = async () => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'denied by the benchmark' } });
let hooks;
switch (spec.hooks) {
  case 'nohooks': case 'mcp10': break;
  case 'pass': hooks = { PreToolUse: [{ hooks: [pass] }], PostToolUse: [{ hooks: [pass] }] }; break;
  case 'deny': hooks = { PreToolUse: [{ hooks: [deny] }] }; break;
  default: throw new Error('the TS driver has no ' + spec.hooks);
}

let mcpServers;
if (spec.mcp_tools > 0) {
  const { z } = createRequire(path.join(sdkDir, 'package.json'))('zod');
  const tools = [];
  for (let i = 0; i < spec.mcp_tools; i++) {
    tools.push(tool(i === 0 ? 'echo' : `echo${i}`, 'Answer the text', { text: z.string().describe('the text to answer') },
      async ({ text }) => ({ content: [{ type: 'text', text }] }), { annotations: { readOnlyHint: true } }));
  }
  mcpServers = { bench: createSdkMcpServer({ name: 'bench', version: '1.0.0', tools }) };
}

// The prompt is sent only once the session is initialised, so that the wall time is the turn's.
let go;
const goP = new Promise((r) => { go = r; });
let done;
const doneP = new Promise((r) => { done = r; });
async function* prompt() {
  await goP;
  yield { type: 'user', message: { role: 'user', content: 'run the benchmark' }, parent_tool_use_id: null, session_id: '' };
  await doneP;
}

const rep = { start_ns: 0, start_cpu_ns: 0, wall_ns: 0, cpu_ns: 0, rt_ns: [], tool_results: 0 };
try {
  const t0 = now();
  const sc0 = cpuNS();
  const q = query({
    prompt: prompt(),
    options: {
      pathToClaudeCodeExecutable: spec.cli, cwd: spec.dir, allowedTools: mcpServers ? ['Bash', 'mcp__bench__echo'] : ['Bash'], hooks, mcpServers,
      env: process.env, spawnClaudeCodeProcess: spawnCLI,
    },
  });
  await q.initializationResult();
  rep.start_ns = Number(now() - t0);
  rep.start_cpu_ns = Number(cpuNS() - sc0);
  const c0 = cpuNS();
  const w0 = now();
  turnBegun = true;
  go();
  let result;
  for await (const m of q) {
    if (m.type === 'user' && Array.isArray(m.message?.content)) {
      for (const b of m.message.content) if (b.type === 'tool_result') rep.tool_results++;
    }
    if (m.type === 'result') { result = m; break; }
  }
  rep.wall_ns = Number(now() - w0);
  rep.cpu_ns = Number(cpuNS() - c0);
  rep.rt_ns = rts;
  if (!result || result.is_error) rep.error = 'the turn failed';
  else if (rep.tool_results !== spec.calls) rep.error = `saw ${rep.tool_results} tool results, want ${spec.calls}`;
  done();
  q.close?.();
} catch (e) {
  rep.error = String(e?.stack ?? e);
}
process.stdout.write(JSON.stringify(rep) + '\n');
process.exit(0);
