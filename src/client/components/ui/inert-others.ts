/**
 * Makes everything on the page but `target` inert, the way Radix's modal layers hide it with
 * aria-hidden (whose rules this follows: live regions stay, and the ancestors of what stays are
 * searched, not hidden). aria-hidden alone left the page behind an open menu reachable by Tab
 * (axe: aria-hidden-focus). Returns the undo, which touches only the elements made inert here.
 */
export function inertOthers(target: Element): () => void {
  const keep = new Set<Element>();
  const keepWithAncestors = (el: Element) => {
    for (let n: Element | null = el; n && !keep.has(n); n = n.parentElement) keep.add(n);
  };
  const leaves = [target, ...document.body.querySelectorAll('[aria-live], script')];
  leaves.forEach(keepWithAncestors);
  const made: Element[] = [];
  const walk = (parent: Element) => {
    for (const child of parent.children) {
      if (leaves.includes(child)) continue;
      if (keep.has(child)) walk(child);
      else if (!child.hasAttribute('inert')) {
        child.setAttribute('inert', '');
        made.push(child);
      }
    }
  };
  walk(document.body);
  return () => made.forEach((el) => el.removeAttribute('inert'));
}
