import type { Config } from '../config';

/**
 * The server's pino options: readable lines (pino-pretty) when stdout is a terminal, one JSON object a line
 * otherwise (files, containers, log collectors). Credentials in request headers never reach the log.
 */
export function loggerOptions(config: Pick<Config, 'LOG_LEVEL'>, isTerminal = Boolean(process.stdout.isTTY)) {
  return {
    level: config.LOG_LEVEL,
    redact: ['req.headers.authorization', 'req.headers.cookie'],
    // Query strings (a set-password link's token) and token path segments (pay links) never reach the log.
    serializers: { req: (request: LoggedRequest) => ({ method: request.method, url: logSafeUrl(request.url) }) },
    ...(isTerminal
      ? {
          transport: {
            target: 'pino-pretty',
            options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname', singleLine: true },
          },
        }
      : {}),
  };
}

type LoggedRequest = { method: string; url: string };

/** A UUID names a record and helps reading a log; any other long base64url segment is a secret token. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const isToken = (segment: string) => segment.length >= 20 && /^[A-Za-z0-9_-]+$/.test(segment) && !UUID.test(segment);

/** The URL as logged: without its query string, and with token-like path segments masked. */
export function logSafeUrl(url: string): string {
  const [path, query] = url.split('?', 2);
  const masked = path
    .split('/')
    .map((segment) => (isToken(segment) ? '[token]' : segment))
    .join('/');
  return query === undefined ? masked : `${masked}?[query]`;
}
