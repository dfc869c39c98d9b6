// Runs a command and ends it together with whoever started this script: when this script's stdin
// closes (the local profile's JVM holds the other end, so this happens even when the JVM is killed
// with SIGKILL) or when this script gets SIGTERM. Ctrl-C in a terminal is the JVM's to act on: the
// command runs in a process group of its own, which the terminal's SIGINT does not reach, and this
// script ignores SIGINT, so the profile stops its parts in order (its agents first, while the
// emulators still answer them) rather than all at once. Its exit code is the command's; when
// the command was ended by a signal this script did not send, 128 + the signal's number, as a
// shell says it, so that whoever started it can tell which.
//
//   node local/sidecar/tether.mjs COMMAND [ARG...]
import { spawn } from 'node:child_process';
import { constants } from 'node:os';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node tether.mjs COMMAND [ARG...]');
  process.exit(2);
}
// The handlers come first: a signal that arrived between spawning and registering them would end
// this script with Node's default action and leave the command running. Handlers run on the event
// loop, so `child` is set by the time one runs.
let child;
let stopping = false;
const stop = () => {
  stopping = true;
  child.kill('SIGTERM');
};
process.on('SIGTERM', stop);
process.on('SIGINT', () => {});
process.stdin.on('end', stop);
process.stdin.resume();
child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'], detached: true });
child.on('error', (e) => {
  console.error(`tether: cannot run ${command}: ${e.message}`);
  process.exit(127);
});
child.on('exit', (code, signal) => {
  if (code !== null) process.exit(code);
  if (stopping) process.exit(0);
  console.error(`tether: ${command} was ended by ${signal}`);
  process.exit(128 + (constants.signals[signal] ?? 0));
});
