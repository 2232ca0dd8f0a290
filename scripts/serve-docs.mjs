// `pnpm docs:serve [port]`: serves the API reference (`docs/api`, built by `pnpm docs:api`) on
// 127.0.0.1, since browsers refuse the icon sprite of a page opened from disk.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../docs/api/', import.meta.url));
const port = Number(process.argv[2] ?? 4080);
if (!existsSync(join(root, 'index.html'))) {
  process.stderr.write('No API reference yet: run `npx pnpm@10.28.2 docs:api` first.\n');
  process.exit(1);
}
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

const server = createServer(async (request, response) => {
  const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
  // The reference has no icon of its own; a 204 keeps the browser's console clean.
  if (path === '/favicon.ico') {
    response.writeHead(204).end();
    return;
  }
  const file = normalize(join(root, path.endsWith('/') ? `${path}index.html` : path));
  // Nothing outside the reference's folder is served.
  if (!file.startsWith(root.endsWith(sep) ? root : `${root}${sep}`)) {
    response.writeHead(403).end();
    return;
  }
  try {
    const body = await readFile(file);
    response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    response.end(body);
  } catch {
    response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
  }
});
server.on('error', (error) => {
  process.stderr.write(
    `Cannot serve the API reference on port ${port}: ${error.code ?? error.message}\n`,
  );
  process.exit(1);
});
server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`API reference on http://127.0.0.1:${port}/ (Ctrl-C stops it)\n`);
});
