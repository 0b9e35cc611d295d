// End to end: submits a small seed job (the world layer, z0-3, rendered again), waits for it through
// /api/v1/jobs/{id}/wait, then reads sample tiles straight from the object store and checks they are PNGs.
//   SEEDER_URL=... SEEDER_TOKEN=... SEEDER_STORE_PATH=s3://bucket/prefix SEEDER_S3_ENDPOINT=... \
//   SEEDER_S3_ACCESS_KEY=... SEEDER_S3_SECRET_KEY=... k6 run k6/seed-e2e.js
import { check, fail } from 'k6';
import * as api from './lib/seeder.js';
import { getObject, isPng, store } from './lib/s3.js';

const LAYER = 'world';
const TMS = 'WebMercatorQuad';
// Tiles with land in them (the layer's empty ocean tiles are not stored): the world, North America and
// Eurasia at z1, Europe at z2 and z3, Africa at z3.
const SAMPLES = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [2, 2, 1], [3, 4, 2], [3, 4, 3]];

export const options = {
  iterations: 1,
  thresholds: { checks: ['rate==1'] },
};

export default function () {
  const { bucket, prefix } = store();
  const { res, job } = api.submit({ layer: LAYER, tileMatrixSet: TMS, zoom: { min: 0, max: 3 }, format: 'png',
    mode: 'reseed', labels: { source: 'k6-seed-e2e' } });
  if (!check(res, { 'submitted: 202': (r) => r.status === 202 })) {
    fail(`POST /api/v1/jobs answered ${res.status}: ${res.body}`);
  }
  const done = api.wait(job.id, 120);
  if (!check(done, { 'the job succeeded': (r) => r.status === 200 && r.json('state') === 'SUCCEEDED' })) {
    fail(`job ${job.id} did not succeed within 120 s: ${done.status} ${done.body}`);
  }
  // A reseed leaves alone the tiles an earlier job wrote with the same bytes: they count as unchanged.
  check(done, { 'tiles were written or found unchanged':
    (r) => r.json('progress.tilesWritten') + r.json('progress.tilesUnchanged') > 0 });
  for (const [z, x, y] of SAMPLES) {
    const key = `${prefix ? `${prefix}/` : ''}${LAYER}/${TMS}/${z}/${x}/${y}.png`;
    const tile = getObject(bucket, key);
    check(tile, {
      [`s3://${bucket}/${key}: 200`]: (r) => r.status === 200,
      [`s3://${bucket}/${key}: a PNG`]: (r) => isPng(r.body),
    });
  }
}
