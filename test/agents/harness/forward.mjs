// Runs inside an agent's private network namespace: listens on
// 127.0.0.1:<port> there and pipes every connection to the scripted model
// server's Unix socket outside. Writes its pid to <pidfile> once listening;
// exits by itself when its parent (the agent) is gone.
//   node forward.mjs <port> <unix-socket> <pidfile>
import fs from 'node:fs';
import net from 'node:net';

// With --reverse: listens on <unix-socket> (outside reaches it) and pipes to 127.0.0.1:<port> inside.
//   node forward.mjs --reverse <port> <unix-socket> <pidfile>
const reverse = process.argv[2] === '--reverse';
const [port, target, pidfile] = process.argv.slice(reverse ? 3 : 2);
const parent = process.ppid;
const server = net.createServer((client) => {
  const upstream = reverse ? net.connect(Number(port), '127.0.0.1') : net.connect(target);
  client.pipe(upstream).pipe(client);
  const close = () => {
    client.destroy();
    upstream.destroy();
  };
  client.on('error', close);
  upstream.on('error', close);
});
if (reverse) fs.rmSync(target, { force: true });
const ready = () => fs.writeFileSync(pidfile, String(process.pid));
if (reverse) server.listen(target, ready);
else server.listen(Number(port), '127.0.0.1', ready);
setInterval(() => {
  if (process.ppid !== parent) process.exit(0);
}, 200).unref();
server.on('error', (err) => {
  process.stderr.write(`forward: ${err.message}\n`);
  process.exit(1);
});
