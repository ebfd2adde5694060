// Plugs the fast paths into the spec's hooks (src/tiers.js), once, as the
// library loads: unless FAST_WEBSTREAMS_FAST_PATHS=0, the switch that runs
// every stream on the spec path, to tell whether a difference comes from here.
import { plugTiers } from '../tiers.js';
import { isOff } from '../patch/features.js';
import { PipePump, pumpSourceEnded } from './pipe-pump.js';
import { feedPump, pumpAfterPull } from './producer-hooks.js';
import { readBufferedChunk, nextBufferedChunk } from './sync-read.js';
import { performTransformHandingOff, countChainEndingAtReader } from './chain.js';
import { enqueueIntoArmedRead, transformReadArmed } from './armed-read.js';

/** A pipe's pump, linked into the chain its streams form. */
function createPipePump(pipe) {
  const pump = new PipePump(pipe);
  pump.link();
  return pump;
}

const fastPathsOn = !isOff(process.env.FAST_WEBSTREAMS_FAST_PATHS);

if (fastPathsOn) {
  plugTiers({
    readBufferedChunk, nextBufferedChunk, feedPump, pumpSourceEnded, pumpAfterPull, performTransformHandingOff,
    enqueueIntoArmedRead, transformReadArmed, countChainEndingAtReader, createPipePump,
  });
}
