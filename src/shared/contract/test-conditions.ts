/**
 * The conditions a test record may state beside its pressure: the test fluid's temperature and the side of
 * the closure member that was pressurised (docs/decisions/0054-test-conditions.md). Both optional.
 */
/** The test fluid's temperature a record may state, °C: any a bench can hold water, air, nitrogen or oil at. */
export const FLUID_TEMPERATURE_MIN = -60;
export const FLUID_TEMPERATURE_MAX = 200;
/**
 * Which side of the closure member was pressurised: A (the inlet, or the side the body marks first), B (the
 * other), or both (a double block and bleed test, or a shell test with the valve open).
 */
export const TEST_SIDES = ['A', 'B', 'both'] as const;
export type TestSide = (typeof TEST_SIDES)[number];
