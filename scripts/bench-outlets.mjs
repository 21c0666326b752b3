/* global process, setTimeout */
// The outlet farm of `npm run bench -- publication` (a child process, so its work is not the bench's
// or the server's): 100 web servers on loopback, 127.0.1.1 to 127.0.1.100 on one port, each
// answering an article of about 100 KB after 50 ms. The path names the brand's host the article
// links to: /a/{paymentId}/{brandHost}. Reports {type: 'ready', port} and, when asked, its counts.
import http from 'node:http';

const HOSTS = Number(process.env.OUTLET_HOSTS ?? 100);
const LATENCY_MS = Number(process.env.OUTLET_LATENCY_MS ?? 50);
const PAGE_BYTES = Number(process.env.OUTLET_PAGE_BYTES ?? 100 * 1024);

const paragraph =
  '<p>The company has grown steadily since its founding, and its approach to customers, products and the people who make them has drawn attention across the industry. ';
let filler = '';
for (let i = 0; filler.length < PAGE_BYTES; i++) filler += `${paragraph}Section ${i} adds detail on markets, plans and results.</p>\n`;

let requests = 0;
const perHostActive = new Map();
let maxPerHost = 0;

function page(brandHost) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A feature on ${brandHost}</title></head><body>
<nav><a href="/">Home</a> <a href="/news">News</a></nav>
<article><h1>A feature on ${brandHost}</h1>
<p>Read more at <a href="https://${brandHost}/">${brandHost}</a>.</p>
${filler}</article><footer>© The Outlet</footer></body></html>`;
}

const servers = [];
async function listen(host, port) {
  const server = http.createServer((req, res) => {
    requests++;
    const active = (perHostActive.get(host) ?? 0) + 1;
    perHostActive.set(host, active);
    maxPerHost = Math.max(maxPerHost, active);
    const [, , , brandHost] = (req.url ?? '').split('/');
    setTimeout(() => {
      perHostActive.set(host, perHostActive.get(host) - 1);
      if (!brandHost) return res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(brandHost));
    }, LATENCY_MS);
  });
  await new Promise((resolve, reject) => server.once('error', reject).listen(port, host, resolve));
  servers.push(server);
  return server.address().port;
}

const port = await listen('127.0.1.1', 0);
for (let h = 2; h <= HOSTS; h++) await listen(`127.0.1.${h}`, port);
process.send?.({ type: 'ready', port });
process.on('message', (m) => {
  if (m?.type === 'counts') process.send?.({ type: 'counts', requests, maxPerHost });
  if (m?.type === 'stop') {
    for (const s of servers) s.close();
    process.exit(0);
  }
});
