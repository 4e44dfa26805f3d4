/* Test helper: reads a PNG (8-bit RGB or RGBA, not interlaced: what headless Chromium's
 * --screenshot writes) into RGB pixels, so that a test can look at what a page drew. */
#ifndef QSIM_TEST_PNG_READ_H
#define QSIM_TEST_PNG_READ_H

#include <glib.h>

typedef struct {
    guint width, height;
    guint8 *rgb;                 /* width x height x 3, row by row from the top */
} PngImage;

/* FALSE (with error) for a file that is not such a PNG. */
gboolean png_read(const char *path, PngImage *img, GError **error);
void png_clear(PngImage *img);
/* The pixel at (x, y), clipped to the image. */
void png_pixel(const PngImage *img, gint x, gint y, guint8 rgb[3]);

#endif
