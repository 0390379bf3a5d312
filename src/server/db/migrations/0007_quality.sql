-- Quality analysis and the audit trail screen (issue 10).

-- The audit trail's user filter in time order, and the list of users who appear in the log (a loose index
-- scan: one step per distinct label). Labels are kept rather than user ids because they outlive the user.
CREATE INDEX audit_log_actor_idx ON audit_log (actor_label, at DESC);

