// Runs inside an agent's private network namespace: listens on
// 127.0.0.1:<port> there and pipes every connection to the scripted model
// server's Unix socket outside. Writes its pid to <pidfile> once listening;
// exits by itself when its parent (the agent) is gone.
//   node forward.mjs <port> <unix-socket> <pidfile>
import fs from 'node:fs';
import net from 'node:net';

const [port, target, pidfile] = process.argv.slice(2);
const parent = process.ppid;
const server = net.createServer((client) => {
  const upstream = net.connect(target);
  client.pipe(upstream).pipe(client);
  const close = () => {
    client.destroy();
    upstream.destroy();
  };
  client.on('error', close);
  upstream.on('error', close);
});
server.listen(Number(port), '127.0.0.1', () => fs.writeFileSync(pidfile, String(process.pid)));
setInterval(() => {
  if (process.ppid !== parent) process.exit(0);
}, 200).unref();
server.on('error', (err) => {
  process.stderr.write(`forward: ${err.message}\n`);
  process.exit(1);
});
