import { defineCollection } from 'astro:content';
import { versionsLoader, worldsLoader } from './registry/content-loader.ts';

export const collections = {
  versions: defineCollection({ loader: versionsLoader() }),
  worlds: defineCollection({ loader: worldsLoader() }),
};
