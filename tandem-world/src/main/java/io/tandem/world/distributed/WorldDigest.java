package io.tandem.world.distributed;

import io.tandem.world.Geometry;
import io.tandem.world.World;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * A digest of what a world simulates: its name, gravity, step size, models (static flag, poses,
 * links with inertia and collisions, joints), performers and levels; not its file name, line
 * numbers, visuals, plugins or the size of planes (infinite to the engine). Gazebo's distributed examples give the primary and the secondaries
 * different files (other plugins, one world): they digest the same. Stateless; allocates.
 */
final class WorldDigest {
    private WorldDigest() {
    }

    /** A mesh by its content, not its path (the processes of a run may keep their files in different folders). */
    private static String mesh(Geometry.Mesh m) {
        long h = 1125899906842597L;
        for (io.tandem.world.mesh.TriangleMesh.Part part : m.mesh().parts()) {
            for (double v : part.positions()) {
                h = 31 * h + Double.doubleToLongBits(v);
            }
            for (int t : part.triangles()) {
                h = 31 * h + t;
            }
        }
        return "mesh " + m.uri() + " " + m.mesh().vertexCount() + "/" + m.mesh().triangleCount() + " " + Long.toHexString(h);
    }

    /** @return the first 16 hex digits of the SHA-256 of the world's simulated content */
    static String of(World w) {
        StringBuilder s = new StringBuilder();
        s.append(w.name()).append('|').append(w.gravityX()).append(',').append(w.gravityY()).append(',')
                .append(w.gravityZ()).append('|').append(w.stepSizeNs()).append('\n');
        for (World.Model m : w.models()) {
            s.append("model ").append(m.name()).append(' ').append(m.isStatic()).append(' ').append(m.pose()).append('\n');
            for (World.Link l : m.links()) {
                s.append(" link ").append(l.name()).append(' ').append(l.pose()).append(' ').append(l.inertial()).append('\n');
                for (World.Collision c : l.collisions()) {
                    // a plane is infinite to the engine: its size is for display only
                    Object g = c.geometry() instanceof Geometry.Plane p ? "plane " + p.nx() + "," + p.ny() + "," + p.nz()
                            : c.geometry() instanceof Geometry.Mesh mesh ? mesh(mesh) : c.geometry();
                    s.append("  ").append(c.name()).append(' ').append(c.pose()).append(' ').append(g).append(' ')
                            .append(c.friction()).append('\n');
                }
            }
            for (World.Joint j : m.joints()) {
                s.append(" joint ").append(j.name()).append(' ').append(j.kind()).append(' ').append(j.parent()).append(' ')
                        .append(j.child()).append(' ').append(j.pose()).append(' ').append(j.axisX()).append(',')
                        .append(j.axisY()).append(',').append(j.axisZ()).append(' ').append(j.lower()).append(',')
                        .append(j.upper()).append(',').append(j.damping());
                if (j.motor()) {
                    // only motorized joints add this, so the digests of other worlds stay as they were
                    s.append(" motor ").append(j.effort()).append(',').append(j.velocityLimit());
                }
                s.append('\n');
            }
        }
        for (World.Performer p : w.performers()) {
            s.append("performer ").append(p.name()).append(' ').append(p.ref()).append(' ').append(p.sizeX()).append(',')
                    .append(p.sizeY()).append(',').append(p.sizeZ()).append('\n');
        }
        for (World.Level l : w.levels()) {
            s.append("level ").append(l.name()).append(' ').append(l.x()).append(',').append(l.y()).append(',').append(l.z())
                    .append(' ').append(l.sizeX()).append(',').append(l.sizeY()).append(',').append(l.sizeZ()).append(' ')
                    .append(l.buffer()).append(' ').append(l.refs()).append('\n');
        }
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(s.toString().getBytes(StandardCharsets.UTF_8));
            StringBuilder hex = new StringBuilder();
            for (int i = 0; i < 8; i++) {
                hex.append(Character.forDigit((d[i] >> 4) & 0xf, 16)).append(Character.forDigit(d[i] & 0xf, 16));
            }
            return hex.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }
}
