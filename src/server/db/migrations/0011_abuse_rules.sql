-- Delivery errors without customers' addresses (docs/decisions/0021-abuse-limits.md). An SMTP bounce quotes
-- the recipient ("550 5.1.1 <jane.doe@customer.example>: User unknown"), and staff read last_error beside
-- the masked address. New errors are masked before they are stored (src/server/mail/retry-policy.ts);
-- this scrubs those stored before: every address becomes its first letter, ***, @, the domain's first
-- letter and *** ("j***@c***"). The characters an address may hold are those of ADDRESS_IN_TEXT in
-- src/server/lib/email-address.ts; only rows with an @ are touched.
UPDATE search_requests
   SET last_error = regexp_replace(last_error, '([^][:space:]<>"''(),;:@[])[^][:space:]<>"''(),;:@[]*@([^][:space:]<>"''(),;:@.[])[^][:space:]<>"''(),;:@[]*', '\1***@\2***', 'g')
 WHERE last_error LIKE '%@%';
UPDATE mail_outbox
   SET last_error = regexp_replace(last_error, '([^][:space:]<>"''(),;:@[])[^][:space:]<>"''(),;:@[]*@([^][:space:]<>"''(),;:@.[])[^][:space:]<>"''(),;:@[]*', '\1***@\2***', 'g')
 WHERE last_error LIKE '%@%';
