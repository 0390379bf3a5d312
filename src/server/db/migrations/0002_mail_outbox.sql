-- Messages waiting to be sent. Written in the same transaction as the change that causes them; a worker
-- claims rows with FOR UPDATE SKIP LOCKED, so several instances never send one message twice.
CREATE TABLE mail_outbox (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  kind text NOT NULL,
  recipient text NOT NULL,
  language text NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'zh')),
  subject text NOT NULL,
  text_body text NOT NULL,
  html_body text,
  -- attachments: [{ filename, contentType, contentBase64 }] or a reference the kind's handler resolves
  attachments jsonb NOT NULL DEFAULT '[]'::jsonb,
  -- what caused it, e.g. { "searchRequestId": "…" }, so its owner can follow the outcome
  ref jsonb NOT NULL DEFAULT '{}'::jsonb,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sending', 'sent', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL DEFAULT 6,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  locked_until timestamptz,
  last_error text,
  sent_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mail_outbox_due_idx ON mail_outbox (next_attempt_at) WHERE status IN ('queued', 'sending');
