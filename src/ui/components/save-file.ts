/** Hands a generated file to the browser's downloads through a short-lived Blob URL. */
export function saveFile(file: { readonly name: string; readonly type: string; readonly text: string }): void {
  const url = URL.createObjectURL(new Blob([file.text], { type: file.type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = file.name;
  link.click();
  // Revoked later: the download reads the URL after this click handler returns.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
