/** The test types of a record, in the order reports and lists show them: the standards define them, the contract and every screen use them. */
export const TEST_TYPES = ['shell', 'seat', 'backseat', 'air-seat', 'functional'] as const;
export type TestType = (typeof TEST_TYPES)[number];
