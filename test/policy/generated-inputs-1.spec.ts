import { describeGeneratedInputs } from './generated-inputs';

// Shard 1 of the generated-inputs test (see generated-inputs.ts).
describeGeneratedInputs(0);
