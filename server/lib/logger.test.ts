import { describe, expect, it } from 'vitest';
import { loggerOptions, logSafeUrl } from './logger';

describe('request URLs in the log', () => {
  it.each([
    ['/set-password?token=Zm9vYmFyYmF6cXV4cXV1eGZvb2Jhcg', '/set-password?[query]'],
    ['/api/contracts?q=acme&limit=10', '/api/contracts?[query]'],
    ['/p/AbCdEfGhIjKlMnOpQrStUvWxYz012345', '/p/[token]'],
    ['/api/checkout/AbCdEfGhIjKlMnOpQrStUvWxYz0123/pay', '/api/checkout/[token]/pay'],
    [
      '/api/contracts/6f1c2a3b-1d2e-4f50-8a9b-0c1d2e3f4a5b/creatives',
      '/api/contracts/6f1c2a3b-1d2e-4f50-8a9b-0c1d2e3f4a5b/creatives',
    ],
    ['/api/client/summary', '/api/client/summary'],
  ])('%s is logged as %s', (url, logged) => {
    expect(logSafeUrl(url)).toBe(logged);
  });

  it('is what the request serializer logs', () => {
    const options = loggerOptions({ LOG_LEVEL: 'info' }, false);
    expect(options.serializers.req({ method: 'GET', url: '/set-password?token=secret' })).toEqual({
      method: 'GET',
      url: '/set-password?[query]',
    });
  });
});
