//! Which shard this process is: `--shard K/N`, or the variables the cluster schedulers
//! set (Slurm array jobs: `SLURM_ARRAY_TASK_ID` and `SLURM_ARRAY_TASK_COUNT`; Kubernetes
//! Indexed Jobs: `JOB_COMPLETION_INDEX`, with the count passed as `PUZ_SHARDS`, since
//! Kubernetes sets none), and which items it owns.

/// Shard `k` of `n`: it owns the items `i` with `i % n == k`, so every shard gets a
/// spread of the list (a list sorted by difficulty still splits evenly).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub k: usize,
    pub n: usize,
}

impl Shard {
    pub fn owns(self, i: usize) -> bool {
        i % self.n == self.k
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

fn number(text: &str, what: &str) -> Result<usize, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("{what} is `{text}`, not a whole number"))
}

/// The shard from `--shard K/N` (or `--shard K` with the count from the environment),
/// else from the schedulers' variables; `0/1` (the whole batch) when none is given.
pub fn resolve(flag: Option<&str>, env: &dyn Fn(&str) -> Option<String>) -> Result<Shard, String> {
    let env_k = || -> Result<Option<usize>, String> {
        if let Some(id) = env("SLURM_ARRAY_TASK_ID") {
            let id = number(&id, "SLURM_ARRAY_TASK_ID")?;
            // `--array=1-8` numbers the tasks from 1: count from the array's first task.
            let min = match env("SLURM_ARRAY_TASK_MIN") {
                Some(m) => number(&m, "SLURM_ARRAY_TASK_MIN")?,
                None => 0,
            };
            return id.checked_sub(min).map(Some).ok_or_else(|| {
                format!("SLURM_ARRAY_TASK_ID {id} is below SLURM_ARRAY_TASK_MIN {min}")
            });
        }
        env("JOB_COMPLETION_INDEX")
            .map(|i| number(&i, "JOB_COMPLETION_INDEX"))
            .transpose()
    };
    let env_n = || -> Result<Option<usize>, String> {
        for var in ["SLURM_ARRAY_TASK_COUNT", "PUZ_SHARDS"] {
            if let Some(n) = env(var) {
                return number(&n, var).map(Some);
            }
        }
        Ok(None)
    };
    let (k, n) = match flag {
        Some(text) => match text.split_once('/') {
            Some((k, n)) => (number(k, "the shard index K")?, number(n, "the shard count N")?),
            None => {
                let k = number(text, "the shard index K")?;
                let n = env_n()?.ok_or_else(|| {
                    format!("--shard {k} needs the number of shards: give --shard {k}/N (or set PUZ_SHARDS)")
                })?;
                (k, n)
            }
        },
        None => match (env_k()?, env_n()?) {
            (Some(k), Some(n)) => (k, n),
            (None, None) => (0, 1),
            (Some(k), None) => {
                return Err(format!(
                    "this is shard {k} (from the scheduler) but the number of shards is not set: \
                     give --shard {k}/N, or set PUZ_SHARDS (a Kubernetes Indexed Job: its completions)"
                ))
            }
            (None, Some(n)) => {
                return Err(format!(
                    "{n} shards are set but not which one this is: give --shard K/{n}, or set \
                     SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX"
                ))
            }
        },
    };
    if n == 0 {
        return Err("the number of shards N must be at least 1".into());
    }
    if k >= n {
        return Err(format!(
            "there is no shard {k} of {n}: the shard index runs from 0 to {}",
            n - 1
        ));
    }
    Ok(Shard { k, n })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k| {
            vars.iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn flags_and_schedulers() {
        let none = with(&[]);
        assert_eq!(resolve(Some("2/7"), &none), Ok(Shard { k: 2, n: 7 }));
        assert_eq!(resolve(None, &none), Ok(Shard { k: 0, n: 1 }));
        let slurm = with(&[
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_COUNT", "8"),
        ]);
        assert_eq!(resolve(None, &slurm), Ok(Shard { k: 3, n: 8 }));
        let from_one = with(&[
            ("SLURM_ARRAY_TASK_ID", "8"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "8"),
        ]);
        assert_eq!(resolve(None, &from_one), Ok(Shard { k: 7, n: 8 }));
        let k8s = with(&[("JOB_COMPLETION_INDEX", "1"), ("PUZ_SHARDS", "4")]);
        assert_eq!(resolve(None, &k8s), Ok(Shard { k: 1, n: 4 }));
        let k8s_alone = with(&[("JOB_COMPLETION_INDEX", "1")]);
        assert!(resolve(None, &k8s_alone)
            .unwrap_err()
            .contains("PUZ_SHARDS"));
        assert_eq!(
            resolve(Some("1"), &with(&[("PUZ_SHARDS", "3")])),
            Ok(Shard { k: 1, n: 3 })
        );
    }

    #[test]
    fn out_of_range() {
        let none = with(&[]);
        assert!(resolve(Some("7/7"), &none)
            .unwrap_err()
            .contains("from 0 to 6"));
        assert!(resolve(Some("0/0"), &none).is_err());
        assert!(resolve(Some("x/2"), &none)
            .unwrap_err()
            .contains("not a whole number"));
    }
}
