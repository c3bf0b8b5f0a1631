// This host's capabilities, detected once per test process (top-level await: the probe is
// asynchronous, and synchronous helpers read the result).
import { detectCapabilities, type HostCapabilities } from '../../src/sandbox/capabilities.js';

export const hostCaps: HostCapabilities = await detectCapabilities();
