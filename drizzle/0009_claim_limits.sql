-- Claims rate limits in one round trip (src/server/lib/rate-limit.ts). Every statement of a
-- PL/pgSQL function takes its own snapshot, so the counts read after the advisory locks see every
-- claim committed before them: concurrent requests never get past a limit together.
CREATE OR REPLACE FUNCTION claim_limits(
  p_buckets text[], p_subjects text[], p_weights bigint[], p_maxes bigint[], p_windows_ms bigint[], p_now timestamptz
) RETURNS TABLE (refused integer, retry_after_ms bigint, ids bigint[])
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  n integer := coalesce(array_length(p_buckets, 1), 0);
  used bigint;
  wanted bigint;
  since timestamptz;
  free_at timestamptz;
  hit record;
  new_id bigint;
  out_ids bigint[] := '{}';
BEGIN
  -- counted events are bookkeeping, not records: a crash may forget the last moment's, and the
  -- request does not wait for the disk to say so
  PERFORM set_config('synchronous_commit', 'off', true);
  -- the caller gives the claims in one order for everyone: two requests never wait on each other's second lock
  FOR i IN 1..n LOOP
    PERFORM pg_advisory_xact_lock(hashtextextended(p_buckets[i] || E'\n' || p_subjects[i], 0));
  END LOOP;
  FOR i IN 1..n LOOP
    since := p_now - p_windows_ms[i] * interval '1 millisecond';
    wanted := greatest(p_weights[i], 1);
    SELECT coalesce(sum(weight), 0) INTO used FROM rate_limit_hits
      WHERE bucket = p_buckets[i] AND subject = p_subjects[i] AND at > since;
    IF used + wanted > p_maxes[i] THEN
      -- refused: when the oldest events leave the window and free enough of it
      free_at := p_now + p_windows_ms[i] * interval '1 millisecond';
      FOR hit IN SELECT weight, at FROM rate_limit_hits
          WHERE bucket = p_buckets[i] AND subject = p_subjects[i] AND at > since ORDER BY at LOOP
        used := used - hit.weight;
        IF used + wanted <= p_maxes[i] THEN
          free_at := hit.at + p_windows_ms[i] * interval '1 millisecond';
          EXIT;
        END IF;
      END LOOP;
      RETURN QUERY SELECT i, (extract(epoch FROM free_at - p_now) * 1000)::bigint, NULL::bigint[];
      RETURN;
    END IF;
  END LOOP;
  FOR i IN 1..n LOOP
    IF p_weights[i] > 0 THEN
      INSERT INTO rate_limit_hits (bucket, subject, weight, at) VALUES (p_buckets[i], p_subjects[i], p_weights[i], p_now)
        RETURNING id INTO new_id;
      out_ids := out_ids || new_id;
    END IF;
  END LOOP;
  RETURN QUERY SELECT 0, 0::bigint, out_ids;
END
$$;
