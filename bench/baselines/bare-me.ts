/**
 * The baseline of GET /api/auth/me: node:http and pg doing the same session lookup and answering the same
 * JSON, with nothing else (no framework, no headers policy, no logging). `npm run bench` starts it.
 */
import http from 'node:http';
import pg from 'pg';
import { bearer, sessionUser, userJson } from './session';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });

http
  .createServer((request, response) => {
    if (request.method !== 'GET' || request.url !== '/api/auth/me') {
      response.writeHead(404).end();
      return;
    }
    sessionUser(pool, bearer(request.headers.authorization)).then(
      (user) => {
        const body = user ? userJson(user) : '{"message":"Authentication required","code":"UNAUTHENTICATED"}';
        response.writeHead(user ? 200 : 401, {
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(body),
        });
        response.end(body);
      },
      () => response.writeHead(500).end(),
    );
  })
  .listen(Number(process.env.PORT), '127.0.0.1', () => console.log('ready'));
