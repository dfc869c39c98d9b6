// Runs a command and ends it together with whoever started this script: when this script's stdin
// closes (the local profile's JVM holds the other end, so this happens even when the JVM is killed
// with SIGKILL) or when this script gets SIGTERM or SIGINT. Its exit code is the command's.
//
//   node local/sidecar/tether.mjs COMMAND [ARG...]
import { spawn } from 'node:child_process';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node tether.mjs COMMAND [ARG...]');
  process.exit(2);
}
const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'] });
const stop = () => child.kill('SIGTERM');
process.stdin.on('end', stop);
process.stdin.resume();
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
child.on('error', (e) => {
  console.error(`tether: cannot run ${command}: ${e.message}`);
  process.exit(127);
});
child.on('exit', (code, signal) => process.exit(code ?? (signal === 'SIGTERM' ? 0 : 1)));
