-- Signed webhooks (docs/decisions/0066-webhooks.md): endpoints that staff systems and customers' systems
-- register, the events the product raises, and one delivery per (event, endpoint) decided when the event is
-- written, in the transaction of the change that raised it (an outbox, as mail_outbox in 0002).

CREATE TABLE webhook_endpoints (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  url text NOT NULL CHECK (char_length(url) BETWEEN 1 AND 2048),
  description text NOT NULL DEFAULT '' CHECK (char_length(description) <= 500),
  events text[] NOT NULL CHECK (cardinality(events) > 0),
  -- Set: a customer's endpoint, which only ever receives that customer's events. The endpoint goes with its
  -- customer: nothing of a deleted customer is left to send.
  customer_id uuid REFERENCES customers (id) ON DELETE CASCADE,
  -- whsec_ + base64 of 32 random bytes. Kept as it is (it signs every request, so it cannot be hashed), as
  -- the report signing key and the verification keys are; the decision says what a reader of the database
  -- could do with it.
  secret text NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  disabled_reason text,
  disabled_at timestamptz,
  -- Failed attempts since the last delivered one, and when that run of failures began: the disable rule.
  consecutive_failures integer NOT NULL DEFAULT 0,
  failing_since timestamptz,
  -- The endpoint's lease: a worker that holds it is the only one sending to this endpoint (at most one
  -- request in flight per endpoint, whatever the number of workers and instances).
  busy_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- Fan-out reads the enabled endpoints of one customer (or the staff's) on every event.
CREATE INDEX webhook_endpoints_customer_idx ON webhook_endpoints (customer_id) WHERE enabled;

-- An event as sent: its id is the webhook-id header, which receivers use to drop a repeated delivery.
CREATE TABLE webhook_events (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  type text NOT NULL,
  customer_id uuid,
  payload jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE webhook_deliveries (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  event_id uuid NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
  endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  locked_until timestamptz,
  last_error text,
  delivered_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- One delivery of an event to an endpoint, whatever happens.
  CONSTRAINT webhook_deliveries_once UNIQUE (event_id, endpoint_id)
);
-- The worker's claim: the due deliveries of an endpoint, oldest first.
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (endpoint_id, next_attempt_at)
  WHERE status IN ('pending', 'sending');
-- A second guard beside the endpoint lease: two requests in flight to one endpoint cannot both be recorded.
CREATE UNIQUE INDEX webhook_deliveries_one_in_flight ON webhook_deliveries (endpoint_id) WHERE status = 'sending';

-- Every attempt, for the delivery log: what the receiver answered (its body cut to 4 KiB) and how long it took.
CREATE TABLE webhook_attempts (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  delivery_id bigint NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_id uuid NOT NULL,
  event_type text NOT NULL,
  attempt integer NOT NULL,
  status_code integer,
  duration_ms integer NOT NULL,
  error text,
  response_body text,
  created_at timestamptz NOT NULL DEFAULT now()
);
-- The log of one endpoint, newest first.
CREATE INDEX webhook_attempts_endpoint_idx ON webhook_attempts (endpoint_id, id DESC);
