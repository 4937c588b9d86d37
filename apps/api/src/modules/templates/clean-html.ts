import sanitizeHtml from 'sanitize-html';

/**
 * A signature's HTML as it may be stored and inserted into a mail: simple formatting, lists, links (http, https,
 * mailto, tel) and images served over https. Everything else — scripts, styles, event handlers, frames, forms, SVG,
 * comments — is dropped; links open in a new tab without the opener.
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ['b', 'strong', 'i', 'em', 'u', 's', 'br', 'p', 'div', 'span', 'ul', 'ol', 'li', 'a', 'img'],
  allowedAttributes: { a: ['href', 'title', 'target', 'rel'], img: ['src', 'alt', 'width', 'height'] },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['https'] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // An image whose address was not kept shows nothing: it goes.
  exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'title', 'iframe', 'svg', 'math', 'template'],
  transformTags: {
    // A mail has no page to be relative to: only absolute links and https images are kept.
    a: (tagName, { href, ...attribs }) => ({
      tagName,
      attribs: {
        ...attribs,
        ...(href && /^(https?:\/\/|mailto:|tel:)/i.test(href.trim()) ? { href } : {}),
        target: '_blank',
        rel: 'noopener noreferrer',
      },
    }),
    img: (tagName, { src, width, height, ...attribs }) => ({
      tagName,
      attribs: {
        ...attribs,
        ...(src && /^https:\/\//i.test(src.trim()) ? { src } : {}),
        // A signature's picture is small: sizes are kept only as whole pixels up to 600.
        ...(width && /^\d{1,3}$/.test(width) && Number(width) <= 600 ? { width } : {}),
        ...(height && /^\d{1,3}$/.test(height) && Number(height) <= 600 ? { height } : {}),
      },
    }),
  },
};

export function cleanSignatureHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}
