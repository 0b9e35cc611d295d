// Plain HTTP GETs of objects of an S3 store (MinIO or any S3-compatible service, path-style URLs), signed with
// AWS Signature Version 4 when SEEDER_S3_ACCESS_KEY is set, unsigned otherwise (a public bucket).
// Store and credentials under the names the seeder reads: SEEDER_STORE_PATH (s3://bucket/prefix),
// SEEDER_S3_ENDPOINT, SEEDER_S3_ACCESS_KEY, SEEDER_S3_SECRET_KEY, SEEDER_S3_REGION (default us-east-1).
import crypto from 'k6/crypto';
import http from 'k6/http';

const ENDPOINT = (__ENV.SEEDER_S3_ENDPOINT || '').replace(/\/+$/, '');
const ACCESS_KEY = __ENV.SEEDER_S3_ACCESS_KEY || '';
const SECRET_KEY = __ENV.SEEDER_S3_SECRET_KEY || '';
const REGION = __ENV.SEEDER_S3_REGION || 'us-east-1';
const EMPTY_SHA256 = crypto.sha256('', 'hex');

/** The bucket and key prefix of SEEDER_STORE_PATH; throws when it is not an s3:// store. */
export function store() {
  const match = /^s3:\/\/([^/]+)\/?(.*?)\/*$/.exec(__ENV.SEEDER_STORE_PATH || '');
  if (!match || !ENDPOINT) {
    throw new Error('set SEEDER_STORE_PATH=s3://bucket/prefix and SEEDER_S3_ENDPOINT to the coordinator\'s store');
  }
  return { bucket: match[1], prefix: match[2] };
}

/** GETs an object; the body comes back as an ArrayBuffer. */
export function getObject(bucket, key, tags = {}) {
  const path = `/${bucket}/${key.split('/').map(encodeURIComponent).join('/')}`;
  const headers = ACCESS_KEY ? sign('GET', path, new Date()) : {};
  return http.get(`${ENDPOINT}${path}`, { headers, responseType: 'binary', tags: { name: 'GET s3 object', ...tags } });
}

function sign(method, path, now) {
  const amzDate = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '');
  const day = amzDate.slice(0, 8);
  const host = ENDPOINT.replace(/^https?:\/\//, '');
  const signed = 'host;x-amz-content-sha256;x-amz-date';
  const canonical = [method, path, '', `host:${host}`, `x-amz-content-sha256:${EMPTY_SHA256}`,
    `x-amz-date:${amzDate}`, '', signed, EMPTY_SHA256].join('\n');
  const scope = `${day}/${REGION}/s3/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, crypto.sha256(canonical, 'hex')].join('\n');
  let key = crypto.hmac('sha256', `AWS4${SECRET_KEY}`, day, 'binary');
  for (const part of [REGION, 's3', 'aws4_request']) {
    key = crypto.hmac('sha256', key, part, 'binary');
  }
  const signature = crypto.hmac('sha256', key, toSign, 'hex');
  return {
    'x-amz-content-sha256': EMPTY_SHA256,
    'x-amz-date': amzDate,
    Authorization: `AWS4-HMAC-SHA256 Credential=${ACCESS_KEY}/${scope}, SignedHeaders=${signed}, Signature=${signature}`,
  };
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** True when the bytes start with PNG's eight-byte signature. */
export function isPng(body) {
  const bytes = new Uint8Array(body || new ArrayBuffer(0));
  return bytes.length > PNG_SIGNATURE.length && PNG_SIGNATURE.every((b, i) => bytes[i] === b);
}
