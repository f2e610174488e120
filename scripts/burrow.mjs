#!/usr/bin/env node
/**
 * What `npm start` and `npm run burrow` run: the compiled CLI (dist/cli.js), rebuilt first if a
 * source changed since it was built, so an edit is never run stale. Arguments pass through.
 */
import { pathToFileURL } from 'node:url';
import { build, ENTRY, isStale } from './build.mjs';

if (isStale()) await build();
await import(pathToFileURL(ENTRY).href);
