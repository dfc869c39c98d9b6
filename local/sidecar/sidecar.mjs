// Local Step Functions emulator for the Gamefleet "local" profile.
// Speaks the AWS JSON 1.0 protocol (X-Amz-Target: AWSStepFunctions.<Op>) so the Java SfnClient can use it through
// endpointOverride, and runs executions in-process with aws-local-stepfunctions. Lambda Task states are sent to
// --invoke-endpoint using the Lambda Invoke REST shape, so nothing here ever talks to real AWS.
//
//   GAMEFLEET_LOCAL_TOKEN=... node local/sidecar/sidecar.mjs --port N --invoke-endpoint http://127.0.0.1:M --region R \
//     --account-id A [--wait-ms K]
//
// The region and account come from the catalog (LocalAccount), through the local profile. Every call needs the
// run's token (X-Gamefleet-Local-Token) and a Host naming this listener, but GET /, which says it is up.
//
// The local profile runs it through tether.mjs, which ends it (SIGTERM) when the profile's JVM goes.
import http from 'node:http';
import { randomUUID, timingSafeEqual } from 'node:crypto';
import { parseArgs } from 'node:util';

// aws-local-stepfunctions 3 targets Node 22 and calls Promise.withResolvers; polyfill it before the module loads.
Promise.withResolvers ??= function () {
  let resolve, reject;
  const promise = new this((res, rej) => { resolve = res; reject = rej; });
  return { promise, resolve, reject };
};
const { StateMachine, ExecutionError, ExecutionAbortedError, ExecutionTimeoutError } = await import('aws-local-stepfunctions');

const { values: args } = parseArgs({
  options: {
    port: { type: 'string' }, 'invoke-endpoint': { type: 'string' }, 'wait-ms': { type: 'string' },
    region: { type: 'string' }, 'account-id': { type: 'string' },
  },
});
if (args.port === undefined || !args['invoke-endpoint'] || !args.region || !args['account-id']) {
  console.error('usage: node sidecar.mjs --port N --invoke-endpoint http://127.0.0.1:M --region R --account-id A [--wait-ms K]');
  process.exit(2);
}
const INVOKE_ENDPOINT = args['invoke-endpoint'].replace(/\/+$/, '');
// This run's token, in the environment (not argv): the edge's Invoke path needs it, and so does every call to this
// listener, which a page in the developer's browser or another local user could otherwise start executions on.
const LOCAL_TOKEN = process.env.GAMEFLEET_LOCAL_TOKEN ?? '';
if (LOCAL_TOKEN === '') {
  console.error('sidecar: GAMEFLEET_LOCAL_TOKEN is not set: the sidecar takes calls only with the run\'s token');
  process.exit(2);
}
const WAIT_MS = args['wait-ms'] === undefined ? undefined : Number(args['wait-ms']);
const ARN_PREFIX = `arn:aws:states:${args.region}:${args['account-id']}:`;

const machines = new Map();   // stateMachineArn -> { arn, name, definition, roleArn, type, creationDate, sm, taskHandlers, waitOverrides }
const executions = new Map(); // executionArn -> execution record (see startExecution)

class ApiError extends Error {
  constructor(type, message) { super(message); this.type = type; }
}
const now = () => Date.now() / 1000; // AWS JSON protocol timestamps are epoch seconds

// ---------- definition handling ----------

// Visits every state, including those inside Parallel branches and Map iterators. State names share one namespace
// in the library's overrides (they are keyed by bare state name), so nested names must not collide.
function forEachState(def, fn) {
  for (const [name, state] of Object.entries(def.States ?? {})) {
    fn(name, state);
    for (const branch of state.Branches ?? []) forEachState(branch, fn);
    if (state.Iterator) forEachState(state.Iterator, fn);
    if (state.ItemProcessor) forEachState(state.ItemProcessor, fn);
  }
}

// "arn:aws:lambda:r:a:function:name[:qualifier]", "name[:qualifier]" or a partial ARN -> { name, qualifier }
function lambdaTarget(ref) {
  const parts = String(ref).split(':');
  if (parts[0] === 'arn') return { name: parts[6], qualifier: parts[7] };
  if (parts.length >= 3 && parts[1] === 'function') return { name: parts[2], qualifier: parts[3] }; // "account:function:name"
  return { name: parts[0], qualifier: parts[1] };
}

function namedError(name, message) {
  const e = new Error(message ?? '');
  e.name = name; // the library matches Retry/Catch ErrorEquals against error.name and reports error.message as Cause
  return e;
}

// Same contract as Lambda's Invoke API: X-Amz-Function-Error marks a function error whose errorType becomes the ASL
// error name (exactly what Step Functions does); transport/5xx problems become Lambda.ServiceException.
async function invokeLambda(ref, payload) {
  const { name, qualifier } = lambdaTarget(ref);
  const url = `${INVOKE_ENDPOINT}/2015-03-31/functions/${encodeURIComponent(name)}/invocations`
    + (qualifier ? `?Qualifier=${encodeURIComponent(qualifier)}` : '');
  let res, text;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-gamefleet-local-token': LOCAL_TOKEN },
      body: JSON.stringify(payload ?? null),
    });
    text = await res.text();
  } catch (e) {
    throw namedError('Lambda.ServiceException', `invoke of ${name} failed: ${e.cause?.message ?? e.message}`);
  }
  const functionError = res.headers.get('x-amz-function-error');
  let body = null;
  try { body = text ? JSON.parse(text) : null; } catch { /* handled below */ }
  if (functionError) {
    throw namedError(body?.errorType ?? functionError, body?.errorMessage ?? text);
  }
  if (res.status >= 500) throw namedError('Lambda.ServiceException', `invoke of ${name}: HTTP ${res.status} ${text}`);
  if (res.status >= 400) {
    // e.g. 404 ResourceNotFoundException / 429 TooManyRequestsException, named the way Step Functions names them
    const type = (res.headers.get('x-amzn-errortype') ?? body?.__type ?? body?.Type ?? 'ServiceException').split(':')[0].split('#').pop();
    throw namedError(`Lambda.${type}`, `invoke of ${name}: HTTP ${res.status} ${text}`);
  }
  if (text && body === null && text.trim() !== 'null') throw namedError('Lambda.ServiceException', `invoke of ${name}: response is not JSON`);
  return body;
}

function taskHandler(resource) {
  if (/^arn:aws[\w-]*:lambda:[^:]*:[^:]*:function:[^:]+(:[^:]+)?$/.test(resource)) {
    return (input) => invokeLambda(resource, input);
  }
  if (/^arn:aws[\w-]*:states:::lambda:invoke$/.test(resource)) {
    // Optimised integration: Parameters (already applied by the library) carry FunctionName + Payload.
    return async (input) => ({ ExecutedVersion: '$LATEST', Payload: await invokeLambda(input?.FunctionName, input?.Payload), StatusCode: 200 });
  }
  // Anything else would make the library call real AWS through its SDK; fail the task locally instead.
  return () => { throw namedError('States.TaskFailed', `sidecar does not support Task resource ${resource}`); };
}

function compile(definitionText) {
  let def;
  try { def = JSON.parse(definitionText); } catch (e) { throw new ApiError('InvalidDefinition', `definition is not JSON: ${e.message}`); }
  const taskHandlers = {}, waitOverrides = {};
  forEachState(def, (name, state) => {
    // Library quirk: ResultPath "$" is treated as a key named "$" instead of "replace the input"; "$" is the default anyway.
    if (state.ResultPath === '$') delete state.ResultPath;
    for (const c of state.Catch ?? []) if (c.ResultPath === '$') delete c.ResultPath;
    if (state.Type === 'Task') taskHandlers[name] = taskHandler(state.Resource);
    if (state.Type === 'Wait' && WAIT_MS !== undefined) waitOverrides[name] = WAIT_MS;
  });
  try {
    return { definition: def, sm: new StateMachine(def), taskHandlers, waitOverrides };
  } catch (e) {
    throw new ApiError('InvalidDefinition', e.message);
  }
}

// ---------- operations ----------

function need(body, field, type = 'ValidationException') {
  if (typeof body[field] !== 'string' || body[field] === '') throw new ApiError(type, `${field} is required`);
  return body[field];
}
function machineByArn(arn) {
  if (!arn?.startsWith(`${ARN_PREFIX}stateMachine:`)) throw new ApiError('InvalidArn', `Invalid Arn: '${arn}'`);
  const m = machines.get(arn);
  if (!m) throw new ApiError('StateMachineDoesNotExist', `State Machine Does Not Exist: '${arn}'`);
  return m;
}
function executionByArn(arn) {
  if (!arn?.startsWith(`${ARN_PREFIX}execution:`)) throw new ApiError('InvalidArn', `Invalid Arn: '${arn}'`);
  const x = executions.get(arn);
  if (!x) throw new ApiError('ExecutionDoesNotExist', `Execution Does Not Exist: '${arn}'`);
  return x;
}
const describeExecution = (x) => ({
  executionArn: x.executionArn, stateMachineArn: x.stateMachineArn, name: x.name, status: x.status,
  startDate: x.startDate, stopDate: x.stopDate, input: x.input, output: x.output, error: x.error, cause: x.cause,
});

function startExecution(body) {
  const m = machineByArn(body.stateMachineArn);
  const name = body.name ?? randomUUID();
  const input = body.input ?? '{}';
  const executionArn = `${ARN_PREFIX}execution:${m.name}:${name}`;
  const existing = executions.get(executionArn);
  if (existing) {
    // AWS: same name + same input while still RUNNING returns the original execution; otherwise ExecutionAlreadyExists.
    if (existing.status === 'RUNNING' && existing.input === input) return { executionArn, startDate: existing.startDate };
    throw new ApiError('ExecutionAlreadyExists', `Execution Already Exists: '${executionArn}'`);
  }
  let parsed;
  try { parsed = JSON.parse(input); } catch (e) { throw new ApiError('InvalidExecutionInput', `input is not JSON: ${e.message}`); }
  const x = { executionArn, stateMachineArn: m.arn, name, status: 'RUNNING', startDate: now(), input };
  executions.set(executionArn, x);
  console.log(`execution started name=${name} stateMachine=${m.name}`);
  const run = m.sm.run(parsed, {
    overrides: { taskResourceLocalHandlers: m.taskHandlers, waitTimeOverrides: m.waitOverrides },
    context: { Execution: { Id: executionArn, Name: name, RoleArn: m.roleArn }, StateMachine: { Id: m.arn, Name: m.name } },
  });
  x.abort = run.abort;
  run.result.then(
    (output) => Object.assign(x, { status: 'SUCCEEDED', output: JSON.stringify(output ?? null) }),
    (err) => {
      if (x.status === 'ABORTED') return; // StopExecution already recorded error/cause
      if (err instanceof ExecutionAbortedError) return Object.assign(x, { status: 'ABORTED' });
      if (err instanceof ExecutionTimeoutError) return Object.assign(x, { status: 'TIMED_OUT', error: 'States.Timeout' });
      // ExecutionError wraps the state error in .cause; its name is the ASL error, its message the Cause.
      const inner = err instanceof ExecutionError && err.cause instanceof Error ? err.cause : err;
      Object.assign(x, { status: 'FAILED', error: inner?.name ?? 'States.Runtime', cause: inner?.message ?? String(err) });
    },
  ).finally(() => {
    x.stopDate ??= now();
    delete x.abort;
    console.log(`execution ended name=${name} status=${x.status}${x.error ? ` error=${x.error}` : ''}`);
  });
  return { executionArn, startDate: x.startDate };
}

const operations = {
  CreateStateMachine(body) {
    const name = need(body, 'name', 'InvalidName');
    const definition = need(body, 'definition', 'InvalidDefinition');
    const arn = `${ARN_PREFIX}stateMachine:${name}`;
    const old = machines.get(arn);
    if (old && old.definitionText === definition) return { stateMachineArn: arn, creationDate: old.creationDate };
    // Local convenience (AWS would answer StateMachineAlreadyExists): a different definition replaces the machine,
    // so a restarted app can redeploy edited workflows. Running executions keep the old definition.
    const compiled = compile(definition);
    machines.set(arn, { arn, name, definitionText: definition, roleArn: body.roleArn ?? '', type: body.type ?? 'STANDARD', creationDate: now(), ...compiled });
    return { stateMachineArn: arn, creationDate: machines.get(arn).creationDate };
  },
  DescribeStateMachine(body) {
    const m = machineByArn(body.stateMachineArn);
    return { stateMachineArn: m.arn, name: m.name, status: 'ACTIVE', definition: m.definitionText, roleArn: m.roleArn, type: m.type, creationDate: m.creationDate };
  },
  ListStateMachines() {
    return { stateMachines: [...machines.values()].map((m) => ({ stateMachineArn: m.arn, name: m.name, type: m.type, creationDate: m.creationDate })) };
  },
  StartExecution: startExecution,
  DescribeExecution: (body) => describeExecution(executionByArn(body.executionArn)),
  ListExecutions(body) {
    const m = machineByArn(body.stateMachineArn);
    const list = [...executions.values()]
      .filter((x) => x.stateMachineArn === m.arn && (!body.statusFilter || x.status === body.statusFilter))
      .sort((a, b) => b.startDate - a.startDate) // AWS lists newest first
      .map(({ executionArn, stateMachineArn, name, status, startDate, stopDate }) => ({ executionArn, stateMachineArn, name, status, startDate, stopDate }));
    return { executions: list };
  },
  StopExecution(body) {
    const x = executionByArn(body.executionArn);
    if (x.status === 'RUNNING') {
      Object.assign(x, { status: 'ABORTED', stopDate: now(), error: body.error, cause: body.cause });
      x.abort?.();
    }
    return { stopDate: x.stopDate };
  },
};

// ---------- HTTP ----------

function send(res, status, payload) {
  const text = JSON.stringify(payload); // undefined fields vanish, which is what the SDK expects for absent members
  res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

const TOKEN_HEADER = 'x-gamefleet-local-token';

// Whose call this is: the Host must name this listener (a page whose own name resolves to 127.0.0.1, DNS
// rebinding, names another), and every call but the readiness GET / must carry this run's token.
function refusal(req) {
  const port = server.address().port;
  const host = String(req.headers.host ?? '').toLowerCase();
  if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) {
    return `the Host header must name this sidecar, 127.0.0.1:${port}, not ${JSON.stringify(req.headers.host ?? null)}`;
  }
  if (req.method === 'GET' && req.url === '/') return null;
  const given = Buffer.from(String(req.headers[TOKEN_HEADER] ?? ''));
  const own = Buffer.from(LOCAL_TOKEN);
  if (given.length !== own.length || !timingSafeEqual(given, own)) {
    return `calls to the Step Functions sidecar need this run's token in the X-Gamefleet-Local-Token header`;
  }
  return null;
}

const server = http.createServer(async (req, res) => {
  const refused = refusal(req);
  if (refused) {
    req.resume();
    return send(res, 403, { __type: 'UnauthorizedException', message: refused });
  }
  if (req.method === 'GET') {
    res.writeHead(req.url === '/' ? 200 : 404, { 'content-type': 'text/plain' });
    return res.end(req.url === '/' ? 'ok' : 'not found');
  }
  const chunks = [];
  for await (const c of req) chunks.push(c);
  try {
    const target = String(req.headers['x-amz-target'] ?? '');
    const opName = target.startsWith('AWSStepFunctions.') ? target.slice('AWSStepFunctions.'.length) : '';
    if (!Object.hasOwn(operations, opName)) throw new ApiError('UnknownOperation', `Unknown operation: '${target}'`);
    let body;
    try { body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {}; } catch (e) {
      throw new ApiError('SerializationException', `request body is not JSON: ${e.message}`);
    }
    send(res, 200, operations[opName](body ?? {}));
  } catch (e) {
    if (!(e instanceof ApiError)) console.error('sidecar internal error', e);
    // JSON 1.0 error shape read by the AWS SDKs: __type selects the exception class, message its text.
    send(res, e instanceof ApiError ? 400 : 500, { __type: e instanceof ApiError ? e.type : 'InternalFailure', message: e.message });
  }
});

server.listen(Number(args.port), '127.0.0.1', () => {
  console.log(`sidecar listening on 127.0.0.1:${server.address().port}`);
});

function shutdown() {
  for (const x of executions.values()) x.abort?.();
  server.close(() => process.exit(0));
  server.closeAllConnections(); // SDK clients keep connections alive; don't wait for them
  setTimeout(() => process.exit(0), 2000).unref();
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
