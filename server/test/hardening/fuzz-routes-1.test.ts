import { fuzzRoutes } from '../fuzz/route-fuzz';

// Every API route, fuzzed with inputs derived from its schemas (server/test/fuzz/route-fuzz.ts): shard 1 of 2.
fuzzRoutes(1, 2);
