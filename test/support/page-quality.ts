/** What every page of the site is held to in a browser: axe, layout shift, no sideways scroll, and where things sit. */
import axe from 'axe-core';
import type { Page } from 'playwright-core';

/** The desktop and phone screens pages are judged at. */
export const SCREENS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
  narrow: { width: 360, height: 740 },
} as const;

/** Axe's serious and critical violations of the page as it is now (or of the part `within` selects), each with the elements it names. */
export async function seriousAxeViolations(page: Page, within?: string): Promise<Array<{ id: string; impact: string; help: string; nodes: string[] }>> {
  await page.addScriptTag({ content: axe.source });
  const violations = await page.evaluate(async (within) => {
    const result = await (window as unknown as { axe: typeof axe }).axe.run(within ? { include: [within] } : document);
    return result.violations.map((x) => ({ id: x.id, impact: x.impact ?? '', help: x.help, nodes: x.nodes.map((n) => n.target.join(' ')) }));
  }, within);
  return violations.filter((x) => x.impact === 'serious' || x.impact === 'critical');
}

/** Starts recording layout shifts from the page's first paint on; call before `page.goto`. */
export async function recordLayoutShift(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __layoutShift: number };
    w.__layoutShift = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) {
        if (!entry.hadRecentInput) w.__layoutShift += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** The cumulative layout shift recorded since `recordLayoutShift` (without shifts that follow input). */
export function layoutShift(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __layoutShift: number }).__layoutShift);
}

/** How many pixels the page is wider than the screen (0 when it does not scroll sideways). */
export function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/** Whether the element a selector finds starts inside the first screen (above the fold) and is visible. */
export async function inFirstScreen(page: Page, selector: string): Promise<boolean> {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el) return false;
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && box.top + window.scrollY < window.innerHeight && box.left >= 0 && box.right <= window.innerWidth + 1;
  }, selector);
}
