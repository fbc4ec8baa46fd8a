/** Hands a generated file to the browser's downloads through a short-lived Blob URL. */
export function saveFile(file: { readonly name: string; readonly type: string; readonly text: string }): void {
  saveBlob(file.name, new Blob([file.text], { type: file.type }));
}

/** Hands base64 data (a resource's blob) to the browser's downloads as a file of its MIME type. */
export function saveBase64(name: string, type: string, base64: string): void {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  saveBlob(name, new Blob([bytes], { type }));
}

/** Hands a Blob to the browser's downloads under `name`. */
export function saveBlob(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  // Revoked later: the download reads the URL after this click handler returns.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
