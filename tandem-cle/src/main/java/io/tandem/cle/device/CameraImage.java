package io.tandem.cle.device;

/**
 * A camera's image (the Gazebo camera DataPack): R, G, B bytes per pixel, row-major, row 0 at the
 * top. A reading device: the last frame rendered by the start of the loop step (a frame at each
 * sync of the world engine where the sensor's update_rate makes one due; {@link #frameTimeNs()}
 * tells which). The two buffers are preallocated and swapped, never copied.
 */
public final class CameraImage extends Device {
    private final int width;
    private final int height;
    private byte[] front;
    private byte[] back;
    private long frontTimeNs = -1;
    private long backTimeNs = -1;

    /** the most pixels of an image: a world's cameras' limit */
    public static final long MAX_PIXELS = io.tandem.world.World.Camera.MAX_PIXELS;

    /**
     * @param name   the camera's scoped name (model::link::sensor)
     * @param engine the owning engine's name
     * @param width  pixels, at least 1
     * @param height pixels, at least 1; at most {@link #MAX_PIXELS} in all
     */
    public CameraImage(String name, String engine, int width, int height) {
        super(name, engine, Side.ROBOT, false);
        if (width < 1 || height < 1) {
            throw new IllegalArgumentException("camera '" + name + "' needs at least 1 x 1 pixels, got " + width + " x " + height);
        }
        if ((long) width * height > MAX_PIXELS) {
            // 3 bytes a pixel, twice (double-buffered): beyond this an image cannot be allocated, or not sensibly
            throw new IllegalArgumentException("camera '" + name + "' of " + width + " x " + height + " pixels: at most "
                    + MAX_PIXELS + " pixels (a 8192 x 8192 image)");
        }
        this.width = width;
        this.height = height;
        this.front = new byte[3 * width * height];
        this.back = new byte[3 * width * height];
    }

    /** @return image width, pixels */
    public int width() {
        return width;
    }

    /** @return image height, pixels */
    public int height() {
        return height;
    }

    /**
     * @return the frame's bytes (width x height x 3); the loop's buffer: read it during the loop
     *         step, do not modify or keep it
     */
    public byte[] image() {
        return front;
    }

    /** @return the simulated time of the frame, ns (-1 before the first frame) */
    public long frameTimeNs() {
        return frontTimeNs;
    }

    /**
     * Engine side: the buffer to render the next frame into (the engine's thread); follow with
     * {@link #published(long)}.
     *
     * @return width x height x 3 bytes
     */
    public byte[] backBuffer() {
        return back;
    }

    /**
     * Engine side: the frame in {@link #backBuffer()} is complete.
     *
     * @param timeNs its simulated time, ns
     */
    public void published(long timeNs) {
        backTimeNs = timeNs;
        published = true;
    }

    @Override
    void swap() {
        byte[] b = front;
        front = back;
        back = b;
        frontTimeNs = backTimeNs;
    }

    @Override
    void clearBuffers() {
        java.util.Arrays.fill(front, (byte) 0);
        frontTimeNs = -1;
        backTimeNs = -1;
        published = false;
    }
}
