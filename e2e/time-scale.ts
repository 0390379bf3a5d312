/**
 * How much longer than on a quiet machine a browser test may take. CI runs the browser tests beside Vitest
 * on two cores (load average 7–10, .ci/run), where a page takes three to four times as long to load and
 * draw as on a quiet machine: its time limits are scaled there. These are limits against a hung test, not
 * assertions of speed (tests never assert timings).
 */
export const TIME_SCALE = process.env.CI ? 3 : 1;
