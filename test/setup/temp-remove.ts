// A vitest setupFile for the real-peer suites (interop, agents): every
// tempDir() directory of a test file is removed after its last hook. Unlike
// temp-cleanup.ts it leaves TMPDIR alone: the real agents those suites start
// bind their own sockets under it, and a deeper TMPDIR would bring their
// paths nearer the 108-byte limit. Their own roots (sba-, sbi-) are removed
// by the suites themselves.
import { afterAll } from 'vitest';
import { removeTempDirs } from '../helpers/temp.js';

afterAll(() => removeTempDirs());
