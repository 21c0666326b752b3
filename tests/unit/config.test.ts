import { describe, expect, it } from 'vitest';
import { fileStoreKind, loadConfig, paymentProviderKind, seedsDemo } from '../../src/server/config';
import { GUARANTEE_DAYS } from '../../src/shared/constants';

const base = { NODE_ENV: 'test' };

describe('configuration', () => {
  it('TRUST_PROXY: true/false, a hop count, or proxy addresses and CIDR ranges; anything else names the variable', () => {
    expect(loadConfig({ ...base }).TRUST_PROXY).toBeUndefined();
    expect(loadConfig({ ...base, TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(loadConfig({ ...base, TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ ...base, TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1' }).TRUST_PROXY).toEqual(['10.0.0.0/8', '127.0.0.1', '::1']);
    for (const bad of ['proxy.example.com', '10.0.0.0/33', '1.2.3.4/8/2', ',']) {
      expect(() => loadConfig({ ...base, TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
    }
  });

  it('LINK_CHECK_ALLOW: hosts, addresses and ranges, with or without a port or span; a bad entry stops the start, naming the variable and the entry', () => {
    const setting = 'outlet.test, intranet.test:8080, 127.0.0.1:1024-65535, 10.0.0.0/8:3000, [::1]:8080, fc00::/7';
    expect(loadConfig({ ...base, LINK_CHECK_ALLOW: setting }).LINK_CHECK_ALLOW).toBe(setting);
    expect(loadConfig({ ...base }).LINK_CHECK_ALLOW).toBeUndefined();
    for (const bad of ['outlet.test:99999', 'outlet.test:0', '127.0.0.1:*', '127.0.0.1:9000-80', '[::1]:', 'http://outlet.test', 'not a host!', '10.0.0.0/99:80']) {
      expect(() => loadConfig({ ...base, LINK_CHECK_ALLOW: bad }), bad).toThrow(/Invalid environment configuration:\n {2}LINK_CHECK_ALLOW: ".+" (is not|has a port)/);
      expect(() => loadConfig({ ...base, LINK_CHECK_ALLOW: bad }), bad).toThrow(bad);
    }
  });

  it('limits are "max/window", with byte sizes; a bad one names its variable', () => {
    const c = loadConfig({ ...base, LIMIT_UPLOAD_BYTES: '200MB/1d', LIMIT_CHECKOUTS: '5/30s' });
    expect(c.LIMIT_UPLOAD_BYTES).toEqual({ max: 200 * 1024 * 1024, windowMs: 86_400_000 });
    expect(c.LIMIT_CHECKOUTS).toEqual({ max: 5, windowMs: 30_000 });
    expect(c.LIMIT_SIGNIN_FAILURES_PER_ACCOUNT).toEqual({ max: 10, windowMs: 900_000 });
    for (const bad of ['10', '0/1h', '10/0s', 'ten/1h', '10/1w']) {
      expect(() => loadConfig({ ...base, LIMIT_SIGNUPS_PER_ADDRESS: bad }), bad).toThrow(/LIMIT_SIGNUPS_PER_ADDRESS/);
    }
  });

  it('payments: Stripe when its keys are set, else the test checkout outside production; production refuses without either', () => {
    expect(paymentProviderKind(loadConfig(base))).toBe('test');
    const keys = { STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' };
    expect(paymentProviderKind(loadConfig({ ...base, ...keys }))).toBe('stripe');
    expect(paymentProviderKind(loadConfig({ ...base, ...keys, PAYMENT_PROVIDER: 'test' }))).toBe('test');
    expect(() => loadConfig({ ...base, PAYMENT_PROVIDER: 'stripe' })).toThrow(/PAYMENT_PROVIDER=stripe needs STRIPE_SECRET_KEY/);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET[\s\S]*PAYMENT_PROVIDER=test/);
    expect(paymentProviderKind(loadConfig({ NODE_ENV: 'production', PAYMENT_PROVIDER: 'test' }))).toBe('test');
    expect(paymentProviderKind(loadConfig({ NODE_ENV: 'production', ...keys }))).toBe('stripe');
    // the command-line tools take no payments
    expect(() => loadConfig({ NODE_ENV: 'production' }, { serving: false })).not.toThrow();
  });

  it('demo content: on by default outside production only; SEED_DEMO=1 in production refuses', () => {
    expect(seedsDemo(loadConfig(base))).toBe(true);
    expect(seedsDemo(loadConfig({ ...base, SEED_DEMO: '0' }))).toBe(false);
    expect(seedsDemo(loadConfig({ NODE_ENV: 'production', PAYMENT_PROVIDER: 'test' }))).toBe(false);
    expect(() => loadConfig({ NODE_ENV: 'production', PAYMENT_PROVIDER: 'test', SEED_DEMO: '1' })).toThrow(/SEED_DEMO=1 in production/);
  });

  it('files: the disk by default, the bucket when chosen or when S3_BUCKET is set; half an S3 setting refuses', () => {
    expect(fileStoreKind(loadConfig(base))).toBe('disk');
    const c = loadConfig({ ...base, S3_BUCKET: 'byline-files', S3_FORCE_PATH_STYLE: '1' });
    expect(fileStoreKind(c)).toBe('s3');
    expect([c.S3_REGION, c.S3_FORCE_PATH_STYLE]).toEqual(['us-east-1', true]);
    // the copy is made with S3_BUCKET set while the disk still serves
    expect(fileStoreKind(loadConfig({ ...base, S3_BUCKET: 'byline-files', FILE_STORE: 'disk' }))).toBe('disk');
    expect(() => loadConfig({ ...base, FILE_STORE: 's3' })).toThrow(/FILE_STORE=s3 needs S3_BUCKET/);
    expect(() => loadConfig({ ...base, S3_BUCKET: 'b-1', S3_ACCESS_KEY_ID: 'AKIA' })).toThrow(/S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY/);
    expect(() => loadConfig({ ...base, S3_PUBLIC_URL: 'https://cdn.example.com' })).toThrow(/S3_PUBLIC_URL needs the s3 file store/);
    expect(() => loadConfig({ ...base, S3_BUCKET: 'b-1', S3_ENDPOINT: 'not a url' })).toThrow(/S3_ENDPOINT/);
  });

  it('a replica and a pooler: DATABASE_READ_URL and DATABASE_TRANSACTION_POOLER need DATABASE_URL', () => {
    const primary = 'postgres://byline@db.internal:5432/byline';
    const c = loadConfig({ ...base, DATABASE_URL: primary, DATABASE_READ_URL: 'postgres://byline@replica.internal:5432/byline', DATABASE_TRANSACTION_POOLER: '1' });
    expect([c.DATABASE_READ_URL, c.DATABASE_TRANSACTION_POOLER]).toEqual(['postgres://byline@replica.internal:5432/byline', true]);
    expect(loadConfig({ ...base, DATABASE_URL: primary }).DATABASE_TRANSACTION_POOLER).toBe(false);
    expect(() => loadConfig({ ...base, DATABASE_READ_URL: primary })).toThrow(/DATABASE_READ_URL \(a replica\) needs DATABASE_URL/);
    expect(() => loadConfig({ ...base, DATABASE_TRANSACTION_POOLER: '1' })).toThrow(/DATABASE_TRANSACTION_POOLER needs DATABASE_URL/);
    expect(() => loadConfig({ ...base, DATABASE_URL: primary, DATABASE_TRANSACTION_POOLER: 'yes' })).toThrow(/DATABASE_TRANSACTION_POOLER/);
  });

  it('PUBLICATION_GUARANTEE_DAYS: the watch after publication, by default the spec guarantee\'s length; the old name GUARANTEE_DAYS is refused, naming the new one', () => {
    expect(loadConfig({ ...base }).PUBLICATION_GUARANTEE_DAYS).toBe(GUARANTEE_DAYS);
    expect(loadConfig({ ...base, PUBLICATION_GUARANTEE_DAYS: '30' }).PUBLICATION_GUARANTEE_DAYS).toBe(30);
    expect(() => loadConfig({ ...base, PUBLICATION_GUARANTEE_DAYS: '0' })).toThrow(/PUBLICATION_GUARANTEE_DAYS/);
    expect(() => loadConfig({ ...base, GUARANTEE_DAYS: '60' })).toThrow(
      'GUARANTEE_DAYS is now PUBLICATION_GUARANTEE_DAYS (the days a live article is watched after publication); set that instead',
    );
  });
});
