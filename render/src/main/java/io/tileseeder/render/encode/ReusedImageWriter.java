package io.tileseeder.render.encode;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import javax.imageio.IIOImage;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.ImageOutputStream;
import javax.imageio.stream.MemoryCacheImageOutputStream;

/** One thread's ImageIO writer, its parameters and its output buffer, reused for every tile. */
final class ReusedImageWriter {

    private final ImageWriter writer;
    private final ImageWriteParam param;
    private final String format;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream(16 * 1024);

    /** @param format the format's name, for errors */
    ReusedImageWriter(ImageWriter writer, ImageWriteParam param, String format) {
        this.writer = writer;
        this.param = param;
        this.format = format;
    }

    /** Writes the image to memory and returns its bytes. */
    byte[] write(BufferedImage image) {
        out.reset();
        try (ImageOutputStream ios = new MemoryCacheImageOutputStream(out)) {
            writer.setOutput(ios);
            writer.write(null, new IIOImage(image, null, null), param);
            writer.setOutput(null);
        } catch (IOException e) {
            throw new UncheckedIOException(format + " encoding failed", e);
        }
        return out.toByteArray();
    }
}
