/** `compute` called once per key: later calls with the same key answer from a map (undefined answers too). */
export function memoize<K, V>(compute: (key: K) => V): (key: K) => V {
    const answers = new Map<K, V>();
    return (key) => {
        if (!answers.has(key)) answers.set(key, compute(key));
        return answers.get(key) as V;
    };
}
