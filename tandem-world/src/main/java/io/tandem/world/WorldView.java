package io.tandem.world;

import java.util.List;

/**
 * The scene of a running world as its observers see it: the loaded models and their poses after
 * an iteration. A standalone {@link WorldRunner} is one; so is the primary of a distributed run,
 * which runs no physics and shows the states its secondaries report. Read it on the stepping
 * thread (in a {@link Listener}); not thread-safe. {@link #modelPose} allocates its result.
 */
public interface WorldView {
    /** Receives the scene after every iteration (on the stepping thread). */
    interface Listener {
        /**
         * @param view      the scene, to read poses from
         * @param iteration the iteration just completed (1 for the first; 0 for the initial state)
         * @param changes   the level changes of this iteration
         */
        void stepped(WorldView view, long iteration, LevelManager.Changes changes);
    }

    /** @return the world */
    World world();

    /** @return iterations completed */
    long iteration();

    /** @return simulated time, ns */
    long simTimeNs();

    /** @return the loaded models in the world's order */
    List<String> loadedModels();

    /**
     * @param model a model's name
     * @return its pose now (the model frame), or null while it is not loaded or not known
     */
    Pose modelPose(String model);

    /**
     * @param model a model's name
     * @param link  the index of one of its links ({@link World.Model#links()} order)
     * @return that link's frame now, or null while the model is not loaded or not known
     */
    Pose linkPose(String model, int link);

    /**
     * @param model a model's name
     * @param joint the index of one of its joints ({@link World.Model#joints()} order)
     * @return a revolute, continuous or prismatic joint's coordinate now (rad, wrapped into
     *         (-pi, pi], or m; since the file's configuration), or NaN for another kind of joint, a
     *         static model, or while the model is not loaded
     */
    double jointPosition(String model, int joint);

    /**
     * @return the models recoloured while running ({@link WorldRunner#setVisualColor}), each to
     *         its r, g, b in [0, 1], in the order they were first recoloured; empty by default
     */
    default java.util.Map<String, double[]> visualColors() {
        return java.util.Map.of();
    }
}
