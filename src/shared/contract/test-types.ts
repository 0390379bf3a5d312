/** The test types, as the standards define them (src/shared/standards/test-types.ts): part of the API's shapes. */
export { TEST_TYPES, type TestType } from '../standards/test-types';
