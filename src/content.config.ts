import { defineCollection } from 'astro:content';
import { versionsLoader, worldsLoader } from './site/content-loader.ts';

export const collections = {
  versions: defineCollection({ loader: versionsLoader() }),
  worlds: defineCollection({ loader: worldsLoader() }),
};
