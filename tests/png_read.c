/* A PNG reader for tests (see png_read.h): the chunks, the IDAT stream inflated by GIO's zlib
 * decompressor, and the five scanline filters undone. */
#include <stdlib.h>
#include <string.h>
#include <gio/gio.h>
#include "tests/png_read.h"

static guint32 be32(const guint8 *p) { return (guint32)p[0] << 24 | (guint32)p[1] << 16 | (guint32)p[2] << 8 | p[3]; }

static gboolean fail(GError **error, const char *path, const char *what)
{
    g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: %s", path, what);
    return FALSE;
}

static GByteArray *inflate(const guint8 *in, gsize n, GError **error)
{
    g_autoptr(GZlibDecompressor) z = g_zlib_decompressor_new(G_ZLIB_COMPRESSOR_FORMAT_ZLIB);
    GByteArray *out = g_byte_array_new();
    guint8 buf[65536];
    for (;;) {
        gsize rd = 0, wr = 0;
        GConverterResult r = g_converter_convert(G_CONVERTER(z), in, n, buf, sizeof buf, G_CONVERTER_INPUT_AT_END,
                                                 &rd, &wr, error);
        if (r == G_CONVERTER_ERROR) {
            g_byte_array_free(out, TRUE);
            return NULL;
        }
        g_byte_array_append(out, buf, (guint)wr);
        in += rd;
        n -= rd;
        if (r == G_CONVERTER_FINISHED)
            return out;
    }
}

static guint8 paeth(guint8 a, guint8 b, guint8 c)
{
    int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

gboolean png_read(const char *path, PngImage *img, GError **error)
{
    memset(img, 0, sizeof *img);
    g_autofree guint8 *file = NULL;
    gsize len = 0;
    if (!g_file_get_contents(path, (char **)&file, &len, error))
        return FALSE;
    if (len < 8 || memcmp(file, "\x89PNG\r\n\x1a\n", 8))
        return fail(error, path, "not a PNG");
    g_autoptr(GByteArray) idat = g_byte_array_new();
    guint bpp = 0;
    for (gsize at = 8; at + 12 <= len;) {
        guint32 n = be32(file + at);
        const guint8 *type = file + at + 4, *data = file + at + 8;
        if (at + 12 + n > len)
            return fail(error, path, "a chunk runs past the end");
        if (!memcmp(type, "IHDR", 4)) {
            img->width = be32(data);
            img->height = be32(data + 4);
            if (data[8] != 8 || (data[9] != 2 && data[9] != 6) || data[12] != 0)
                return fail(error, path, "not 8-bit RGB or RGBA without interlace");
            bpp = data[9] == 6 ? 4 : 3;
        } else if (!memcmp(type, "IDAT", 4))
            g_byte_array_append(idat, data, n);
        at += 12 + n;
    }
    if (!bpp || !img->width || !img->height)
        return fail(error, path, "no image header");
    g_autoptr(GByteArray) raw = inflate(idat->data, idat->len, error);
    gsize stride = (gsize)img->width * bpp;
    if (!raw)
        return FALSE;
    if (raw->len < (stride + 1) * img->height)
        return fail(error, path, "the image data is short");
    g_autofree guint8 *prev = g_malloc0(stride), *row = g_malloc(stride);
    img->rgb = g_malloc((gsize)img->width * img->height * 3);
    for (guint y = 0; y < img->height; y++) {
        const guint8 *src = raw->data + y * (stride + 1);
        for (gsize i = 0; i < stride; i++) {
            guint8 a = i >= bpp ? row[i - bpp] : 0, b = prev[i], c = i >= bpp ? prev[i - bpp] : 0, x = src[1 + i];
            switch (src[0]) {
            case 0: row[i] = x; break;
            case 1: row[i] = x + a; break;
            case 2: row[i] = x + b; break;
            case 3: row[i] = x + (guint8)((a + b) / 2); break;
            case 4: row[i] = x + paeth(a, b, c); break;
            default: png_clear(img); return fail(error, path, "an unknown scanline filter");
            }
        }
        for (guint x = 0; x < img->width; x++)
            memcpy(img->rgb + ((gsize)y * img->width + x) * 3, row + (gsize)x * bpp, 3);
        memcpy(prev, row, stride);
    }
    return TRUE;
}

void png_clear(PngImage *img)
{
    g_free(img->rgb);
    memset(img, 0, sizeof *img);
}

void png_pixel(const PngImage *img, gint x, gint y, guint8 rgb[3])
{
    x = CLAMP(x, 0, (gint)img->width - 1);
    y = CLAMP(y, 0, (gint)img->height - 1);
    memcpy(rgb, img->rgb + ((gsize)y * img->width + (guint)x) * 3, 3);
}
