import { describeGeneratedInputs } from './generated-inputs';

// Shard 2 of the generated-inputs test (see generated-inputs.ts).
describeGeneratedInputs(1);
