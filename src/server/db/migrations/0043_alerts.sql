-- Quality alerts (docs/decisions/0065-quality-alerts.md): raised by the evaluator from new test records,
-- from the benches' silence, from instruments' calibrations and from delivery held units.
CREATE TABLE alerts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  kind text NOT NULL
    CHECK (kind IN ('rule', 'yield', 'silence', 'disagreement', 'calibration', 'deliveryHeld', 'webhookDisabled')),
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'acknowledged')),
  -- What makes an alert new: two instances evaluating the same records raise it once (unique), and a
  -- condition that lasts (a bench silent for hours) is one alert, not one per evaluation.
  dedupe_key text NOT NULL CHECK (char_length(dedupe_key) <= 300),
  raised_at timestamptz NOT NULL DEFAULT now(),
  product_id uuid REFERENCES products (id) ON DELETE SET NULL,
  machine_id uuid REFERENCES machines (id) ON DELETE SET NULL,
  serial text,
  -- test_records.id of the record behind it (no FK: records are never deleted one by one, and the
  -- table is the largest; an alert outlives nothing it points at)
  record_id bigint,
  -- the facts the summary is written from, in the reader's language (figures, rule codes, names)
  detail jsonb NOT NULL DEFAULT '{}'::jsonb,
  acknowledged_at timestamptz,
  acknowledged_by uuid REFERENCES users (id) ON DELETE SET NULL,
  acknowledged_by_label text,
  cause text CHECK (char_length(cause) <= 2000),
  action text CHECK (char_length(action) <= 2000),
  CONSTRAINT alerts_acknowledged_whole CHECK (
    (status = 'open' AND acknowledged_at IS NULL)
    OR (status = 'acknowledged' AND acknowledged_at IS NOT NULL AND cause IS NOT NULL AND action IS NOT NULL)
  )
);
CREATE UNIQUE INDEX alerts_dedupe_key ON alerts (dedupe_key);
CREATE INDEX alerts_raised_idx ON alerts (raised_at DESC, id DESC);
CREATE INDEX alerts_open_idx ON alerts (raised_at DESC, id DESC) WHERE status = 'open';

-- A condition that lasts (yield below its threshold, a bench silent, a rule broken by the newest points):
-- raised when it begins. The flip from inactive to active is one UPDATE, so one instance raises it.
CREATE TABLE alert_conditions (
  key text PRIMARY KEY CHECK (char_length(key) <= 300),
  active boolean NOT NULL,
  changed_at timestamptz NOT NULL DEFAULT now()
);

-- How far the evaluator has read the records (received_at of its last run's start).
CREATE TABLE alert_cursor (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  read_until timestamptz NOT NULL
);

-- Thresholds, per product or per bench: first-pass yield over the last N units; and a bench's silence
-- during its working hours (in its time zone).
CREATE TABLE alert_thresholds (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  product_id uuid REFERENCES products (id) ON DELETE CASCADE,
  machine_id uuid REFERENCES machines (id) ON DELETE CASCADE,
  yield_units integer CHECK (yield_units BETWEEN 5 AND 5000),
  yield_min numeric(5, 4) CHECK (yield_min > 0 AND yield_min <= 1),
  silence_minutes integer CHECK (silence_minutes BETWEEN 10 AND 10080),
  work_days smallint[] NOT NULL DEFAULT '{1,2,3,4,5}',
  work_start time NOT NULL DEFAULT '08:00',
  work_end time NOT NULL DEFAULT '17:00',
  time_zone text NOT NULL DEFAULT 'Asia/Taipei',
  -- the days the run rules' limits come from (a period the engineer knows was in control); none: the 90
  -- days before the 30 judged
  baseline_from date,
  baseline_to date,
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT alert_thresholds_one_target CHECK (num_nonnulls(product_id, machine_id) = 1),
  CONSTRAINT alert_thresholds_yield_whole CHECK ((yield_units IS NULL) = (yield_min IS NULL)),
  CONSTRAINT alert_thresholds_silence_bench CHECK (silence_minutes IS NULL OR machine_id IS NOT NULL),
  CONSTRAINT alert_thresholds_baseline_whole CHECK ((baseline_from IS NULL) = (baseline_to IS NULL) AND baseline_from <= baseline_to)
);
CREATE UNIQUE INDEX alert_thresholds_product_key ON alert_thresholds (product_id) WHERE product_id IS NOT NULL;
CREATE UNIQUE INDEX alert_thresholds_machine_key ON alert_thresholds (machine_id) WHERE machine_id IS NOT NULL;

-- How each user hears of alerts by email: each at once, a daily digest, or not at all.
ALTER TABLE users ADD COLUMN alert_mail text NOT NULL DEFAULT 'none' CHECK (alert_mail IN ('instant', 'digest', 'none'));
