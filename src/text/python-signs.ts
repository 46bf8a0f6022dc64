/** Math signs as Python writes them, for text a model is given and may copy into code. */

/** `×` `·` → `*`, `÷` → `/`, `−` → `-`, `≥` `≤` → `>=` `<=` (the model copies the signs it is given into code). */
export function pythonSigns(text: string): string {
  return text.replace(/[×·]/g, '*').replace(/÷/g, '/').replace(/−/g, '-').replace(/≥/g, '>=').replace(/≤/g, '<=');
}
