/** The test types of a record, in the order reports and lists show them (no imports: the standards read it too). */
export const TEST_TYPES = ['shell', 'seat', 'backseat', 'air-seat', 'functional'] as const;
export type TestType = (typeof TEST_TYPES)[number];
