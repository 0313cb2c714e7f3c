/** STORAGE_URL's form and rules, shared by the configuration (checked at start-up) and lib/storage.ts. */

/** Where an S3 storage keeps its objects, as STORAGE_URL names it. */
export type S3StorageOptions = {
  bucket: string;
  /** An S3-compatible server (MinIO, Ceph, R2, ...); AWS's own endpoint for the region when absent. */
  endpoint?: string;
  region: string;
  /** Bucket in the path (http://host/bucket/key), as most S3-compatible servers need; else in the host name. */
  forcePathStyle: boolean;
};

const STORAGE_URL_FORM = 's3://bucket?endpoint=URL&region=R&forcePathStyle=true';
const STORAGE_URL_OPTIONS = ['endpoint', 'region', 'forcePathStyle'];

/**
 * STORAGE_URL read into its options: `s3://bucket?endpoint=URL&region=R&forcePathStyle=true`, each option
 * optional (region us-east-1, path style off, AWS's endpoint). Anything else throws, naming what is wrong but
 * never echoing the value (it could hold a secret). server/config.ts applies it at start-up.
 */
export function parseStorageUrl(value: string): S3StorageOptions {
  const url = new URL(URL.canParse(value) ? value : 'invalid:');
  const params = url.searchParams;
  const endpoint = params.get('endpoint') ?? undefined;
  const region = params.get('region') ?? 'us-east-1';
  const forcePathStyle = params.get('forcePathStyle') ?? 'false';
  const names = [...params.keys()];
  const checks: [failed: boolean, problem: string][] = [
    [url.protocol !== 's3:', `must look like ${STORAGE_URL_FORM}`],
    [url.username !== '' || url.password !== '', 'must not hold credentials: set the standard AWS variables'],
    [
      !/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(url.hostname),
      'needs a bucket name after s3:// (3 to 63 lowercase letters, digits, dots and hyphens)',
    ],
    [url.port !== '' || !['', '/'].includes(url.pathname) || url.hash !== '', 'holds no port, path or #fragment'],
    [names.some((name) => !STORAGE_URL_OPTIONS.includes(name)), 'takes only endpoint, region and forcePathStyle'],
    [new Set(names).size !== names.length, 'gives an option twice'],
    [endpoint !== undefined && !isPlainHttpUrl(endpoint), 'endpoint must be an http:// or https:// URL'],
    [!/^[A-Za-z0-9-]+$/.test(region), 'region must be letters, digits and hyphens'],
    [forcePathStyle !== 'true' && forcePathStyle !== 'false', 'forcePathStyle must be true or false'],
  ];
  const problem = checks.find(([failed]) => failed)?.[1];
  if (problem) throw new Error(`STORAGE_URL ${problem}`);
  return { bucket: url.hostname, ...(endpoint ? { endpoint } : {}), region, forcePathStyle: forcePathStyle === 'true' };
}

/** An http(s) URL without credentials (they come from the AWS variables, and a URL may be logged). */
function isPlainHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password;
}
