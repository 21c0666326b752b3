import path from 'node:path';
import { loadConfig } from '../config';
import { s3OptionsFor } from './from-config';
import { copyUploads } from './migrate-to-s3';
import { s3FileStore } from './s3-store';

// npm run files:migrate-to-s3: copies DATA_DIR/uploads to the bucket of S3_BUCKET (decision 020),
// skipping what is already there; run it again until it copies nothing, then set FILE_STORE=s3
const config = loadConfig(process.env, { serving: false });
const s3 = s3OptionsFor(config);
if (!s3) {
  console.error('Set S3_BUCKET (and S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY as needed) first.');
  process.exit(1);
}
const dir = path.join(config.DATA_DIR, 'uploads');
try {
  const report = await copyUploads(dir, s3FileStore(s3), (line) => console.log(line));
  console.log(
    `${dir} -> s3://${s3.bucket}: ${report.copied.length} copied, ${report.skipped.length} already there` +
      (report.ignored.length ? `, ${report.ignored.length} ignored (${report.ignored.join(', ')})` : ''),
  );
} catch (err) {
  const cause = (err as { cause?: Error }).cause;
  console.error(`Copy stopped: ${(err as Error).message}${cause ? ` (${cause.message ?? cause})` : ''}. Run it again to resume.`);
  process.exit(1);
}
